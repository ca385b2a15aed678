#include <fstream>
#include <vector>
int main() {
    std::ifstream in("inputf.txt");
    std::vector<long> values;
    long x;
    while (in >> x) values.push_back(x);
    long total = 0;
    for (long v : values) total += v;
    std::ofstream("outputf.txt") << total << "\n";
}
