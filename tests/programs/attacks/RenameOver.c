/* Attack: replace the arena's protocol files mid-decision instead of writing them.
 *
 * Each decision writes a raise into its own file and renames it over outputf.txt, renames a forged
 * deal over deal.txt and inputf.txt, hard-links outputf.txt and deal.txt to names of its own, unlinks
 * deal.txt, and then writes its real answer, 0, into outputf.txt as Checker.py does. What each try gave
 * is appended to tries.txt (a help file). Only the written 0 may count: the renames and unlinks must
 * fail (root's files in a sticky folder).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void note(FILE *log, const char *what, int result) {
    fprintf(log, "%s:%s ", what, result == 0 ? "done" : strerror(errno));
}

int main(void) {
    FILE *log = fopen("tries.txt", "a");
    FILE *fake = fopen("forged.txt", "w");
    if (fake) { fputs("3 1000000\n", fake); fclose(fake); }
    note(log, "rename-output", rename("forged.txt", "outputf.txt"));
    fake = fopen("forged.txt", "w");
    if (fake) { fputs("1 2 3 4 5\n", fake); fclose(fake); }
    note(log, "rename-deal", rename("forged.txt", "deal.txt"));
    note(log, "rename-input", rename("forged.txt", "inputf.txt"));
    note(log, "link-output", link("outputf.txt", "kept-output.txt"));
    note(log, "link-deal", link("deal.txt", "kept-deal.txt"));
    note(log, "unlink-deal", unlink("deal.txt"));
    fputs("\n", log);
    fclose(log);
    unlink("forged.txt");
    FILE *answer = fopen("outputf.txt", "w");
    if (!answer) return 1;
    fputs("0\n", answer);
    return fclose(answer);
}
