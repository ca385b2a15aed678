# Attack: perl -c runs BEGIN blocks, so the "check" leaves files that would become build products:
# a note, a link to the host's /etc/passwd, a link to /dev/zero, a folder named outputf.txt and a FIFO.
use strict;
use warnings;
use POSIX qw(mkfifo);

BEGIN {
    if (open(my $note, '>', 'notes.txt')) { print $note "kept by the build\n"; close($note); }
    symlink('/etc/passwd', 'passwd');
    symlink('/dev/zero', 'zeros');
    mkdir('outputf.txt');
    mkfifo('pipe', 0644);
}

if (open(my $answer, '>', 'outputf.txt')) { print $answer "0\n"; close($answer); }
