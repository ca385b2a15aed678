# Fixed work: the number of rounds in inputf.txt, then an answer.
open(my $in, "<", "inputf.txt") or die;
my ($rounds) = split ' ', <$in>;
my $total = 0;
for (my $i = 0; $i < $rounds; $i++) { $total = ($total * 31 + $i) % 1000003; }
open(my $out, ">", "outputf.txt") or die;
print $out $total % 2, "\n";
