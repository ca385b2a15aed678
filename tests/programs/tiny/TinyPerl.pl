use strict;
use warnings;
open(my $in, '<', 'inputf.txt') or die "no input";
my $total = 0;
while (my $line = <$in>) { $total += $_ for split ' ', $line; }
close($in);
open(my $out, '>', 'outputf.txt') or die "no output";
print $out "$total\n";
close($out);
