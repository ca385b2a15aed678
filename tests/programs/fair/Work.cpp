// Fixed work: the number of rounds in inputf.txt, then an answer.
#include <fstream>
int main() {
    long rounds = 0, total = 0;
    std::ifstream in("inputf.txt");
    if (!(in >> rounds)) return 1;
    for (long i = 0; i < rounds; i++) total = (total * 31 + i) % 1000003;
    std::ofstream("outputf.txt") << total % 2 << "\n";
    return 0;
}
