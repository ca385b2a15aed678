/* Attack: a binary just under the 16 MB file-size limit, built without a fault, that plays like Checker.py.
 * The table copies the team folder out at its end, build products included, so every table this team
 * plays at leaves 15 MB of it in the run folder (and a Java team's class files, up to the folder's cap). */
#include <stdio.h>

static volatile char ballast[15 << 20] = {1}; /* initialised: in .data, so in the file */

int main(void) {
    FILE *answer = fopen("outputf.txt", "w");
    if (answer) { fputs("0\n", answer); fclose(answer); }
    return ballast[0] == 1 ? 0 : 1;
}
