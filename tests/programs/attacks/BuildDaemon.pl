# Attack on the build: a BEGIN block runs at `perl -c`, in the build's sandbox. At build time only (no
# deal.txt yet) it leaves a daemon (fork, setsid, fork again, SIGTERM and SIGHUP ignored) that waits up
# to 30 s for the first decision's files to appear and then writes "survived" in survived.txt and a
# forged answer in outputf.txt. The build itself leaves nothing, so it succeeds. Every decision answers
# 0, as Checker.py does. The daemon must end with the build: survived.txt must never appear.
use strict;
use warnings;
use POSIX ();

BEGIN {
    my $pid = -e '/team/deal.txt' ? undef : fork();    # at build time only
    if (defined $pid && $pid == 0) {
        POSIX::setsid();
        exit 0 if fork();
        $SIG{TERM} = 'IGNORE';
        $SIG{HUP} = 'IGNORE';
        for (1 .. 3000) {
            if (-e '/team/deal.txt') {
                open my $note, '>>', '/team/survived.txt';
                print $note "survived\n";
                close $note;
                open my $forged, '>', '/team/outputf.txt';
                print $forged "999999\n";
                close $forged;
            }
            select(undef, undef, undef, 0.01);
        }
        POSIX::_exit(0);
    }
    waitpid($pid, 0) if $pid;
}

open my $answer, '>', 'outputf.txt' or die "outputf.txt: $!";
print $answer "0\n";
close $answer;
