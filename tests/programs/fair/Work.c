/* Fixed work: the number of rounds in inputf.txt, then an answer. */
#include <stdio.h>
int main(void) {
    long rounds = 0, total = 0;
    FILE *in = fopen("inputf.txt", "r");
    if (!in || fscanf(in, "%ld", &rounds) != 1) return 1;
    fclose(in);
    for (long i = 0; i < rounds; i++) total = (total * 31 + i) % 1000003;
    FILE *out = fopen("outputf.txt", "w");
    fprintf(out, "%ld\n", total % 2);
    fclose(out);
    return 0;
}
