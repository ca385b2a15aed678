/* Attack on the build: a tiny source whose binary is 64 MB (an initialised array the program reads),
 * past the 16 MB file-size limit, to fill the build cache or the team folder with build products that
 * never count as help files. The build must fail on the file-size limit with the reason. */
char big[64 << 20] = {1};
int main(int argc, char **argv) { return big[argc * 12345]; }
