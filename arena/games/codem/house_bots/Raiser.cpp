// Raiser: a Code'em Poker team program (C++17) that bets and raises whenever its hand is decent, with
// a sense of its stack.
//
// Pre-flop it scores its hand with the Chen formula (pairs, high cards, suited, connected): a score of
// 8 or more opens with a raise (10 or more raises a single raise), 6 or more calls a modest bet,
// anything else checks or folds. Facing a re-raise (a second raise in the round, or a bet above 6 big
// blinds) only the top of its range (score 12 or more: J-J and better, A-K suited) raises again; a
// score of 10 or more calls when the price is at most an eighth of its stack, the rest folds.
// After the flop any pair made with a hole card (or a strong draw: four to a flush or an open-ended
// straight) bets; a very strong made hand (two pair with both hole cards on an unpaired board, trips
// or better) raises and re-raises; a pair answers a bet of up to half the pot by calling (when the call
// costs at most a third of its chips), never by raising again.
// Raises are sized from the pot (the pot after calling; three quarters of it with a pair), never below
// the minimum raise worked out from this round's rows of deal.txt. The whole stack goes in only with a
// premium hand (score 12 or more) or a very strong made hand: other raises stop at a third of the
// chips behind, and when even the minimum raise is beyond that it calls instead. Deep stacks: once the
// deal would hold more than kDeep (100 big blinds) of its chips, only a monster (A-A pre-flop, a full
// house or better later) raises, and anything else folds to a bet bigger than the pot before it.
//
// Files: reads inputf.txt, deals_money.txt, deal.txt (split on white space); writes one integer to
// outputf.txt, nothing at Stage Show_Down. No help files.
// Build: g++ -O2 -std=c++17 -o Raiser Raiser.cpp
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr int kBigBlind = 10;
constexpr int kRaiseScore = 8;  // pre-flop Chen score that raises
constexpr int kCallScore = 6;   // pre-flop Chen score that calls a bet of up to 6 big blinds
constexpr int kDefendScore = 10;   // pre-flop Chen score that calls a re-raise costing a small part of the stack
constexpr int kPremiumScore = 12;  // pre-flop Chen score that re-raises again and may commit the stack
constexpr int kMonsterScore = 20;  // pre-flop Chen score (A-A only) that raises past kDeep
constexpr int kDeep = 100 * kBigBlind;  // chips in one deal past which only a monster raises
const std::vector<std::string> kRounds = {"Pre_Flop", "Flop", "Fourth_Street", "Fifth_Street"};

bool IsNumber(const std::string& word) {
  size_t start = word[0] == '-' ? 1 : 0;
  return word.size() > start &&
         std::all_of(word.begin() + start, word.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

struct Action {
  int seat;
  char kind;  // 'C' call, 'R' rise, 'F' fold
  int total;  // the seat's total for the round after the action
};

// What deal.txt says, read by white space so that irregular layouts parse too.
struct Deal {
  std::string stage;
  int pot = 0;
  std::vector<int> board;
  std::map<std::string, std::vector<Action>> rounds;

  explicit Deal(std::istream& in) {
    std::string line, current;
    std::vector<int> header;
    size_t board_left = 0;
    while (std::getline(in, line)) {
      std::istringstream split(line);
      std::vector<std::string> words;
      for (std::string w; split >> w;) words.push_back(w);
      if (words.empty()) continue;
      const std::string& head = words[0];
      if (head == "Stage" && words.size() >= 2) {
        stage = words[1];
      } else if (head == "Main_Pot" && words.size() >= 2 && IsNumber(words[1])) {
        pot = std::stoi(words[1]);
      } else if (words.size() == 1 && (head == "Show_Down" || std::count(kRounds.begin(), kRounds.end(), head))) {
        current = head;
        header.clear();
        board_left = head == "Flop" ? 3 : (head == "Pre_Flop" || head == "Show_Down") ? 0 : 1;
        rounds[current];
      } else if (current.empty() || current == "Show_Down" || head == "End") {
        continue;
      } else if (std::all_of(words.begin(), words.end(), IsNumber)) {
        if (board_left > 0) {
          for (size_t i = 0; i < words.size() && i < board_left; i++) board.push_back(std::stoi(words[i]));
          board_left = 0;
        } else if (header.empty()) {
          for (const auto& w : words) header.push_back(std::stoi(w));
        }
      } else {
        ReadRow(words, header, rounds[current]);
      }
    }
  }

  static void ReadRow(const std::vector<std::string>& words, const std::vector<int>& header,
                      std::vector<Action>& actions) {
    size_t column = 0;
    for (size_t i = 0; i < words.size(); i++) {
      if (words[i] == "-") {
        column++;
      } else if ((words[i] == "Call" || words[i] == "Rise" || words[i] == "Fold") && i + 1 < words.size() &&
                 IsNumber(words[i + 1])) {
        int seat = column < header.size() ? header[column] : static_cast<int>(column) + 1;
        actions.push_back({seat, words[i][0], std::stoi(words[i + 1])});
        column++;
        i++;
      }
    }
  }

  std::string CurrentRound() const {
    if (rounds.count(stage)) return stage;
    for (auto it = kRounds.rbegin(); it != kRounds.rend(); ++it)
      if (rounds.count(*it)) return *it;
    return "Pre_Flop";
  }

  // Raises in the round that are not blinds (the first two pre-flop Rise cells are the blinds).
  int Raises(const std::string& round) const {
    auto found = rounds.find(round);
    if (found == rounds.end()) return 0;
    int count = 0, skipped = 0;
    for (const auto& a : found->second) {
      if (a.kind != 'R') continue;
      if (round == "Pre_Flop" && skipped < 2 && a.total <= kBigBlind) {
        skipped++;
        continue;
      }
      count++;
    }
    return count;
  }

  std::map<int, int> Totals(const std::string& round) const {
    std::map<int, int> totals;
    auto found = rounds.find(round);
    if (found != rounds.end())
      for (const auto& a : found->second) totals[a.seat] = a.total;
    return totals;
  }

  // The opening minimum (big blind; twice that on the turn and the river), or the largest raise so far.
  int MinRaise(const std::string& round) const {
    int minimum = (round == "Pre_Flop" || round == "Flop") ? kBigBlind : 2 * kBigBlind;
    std::set<int> levels;
    auto found = rounds.find(round);
    if (found != rounds.end())
      for (const auto& a : found->second)
        if (a.kind == 'R') levels.insert(a.total);
    int previous = 0;
    for (int level : levels) {
      minimum = std::max(minimum, level - previous);
      previous = level;
    }
    return minimum;
  }
};

int Rank(int card) { return (card - 1) % 13; }  // 0 = two .. 12 = ace
int Suit(int card) { return (card - 1) / 13; }

// Bill Chen's pre-flop score, rounded up.
int ChenScore(int c1, int c2) {
  static const std::array<double, 13> kHigh = {1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 10};
  int high = std::max(Rank(c1), Rank(c2)), low = std::min(Rank(c1), Rank(c2));
  double score = kHigh[high];
  if (high == low) return static_cast<int>(std::ceil(std::max(5.0, 2 * score)));
  if (Suit(c1) == Suit(c2)) score += 2;
  int gap = high - low - 1;
  score -= gap == 0 ? 0 : gap == 1 ? 1 : gap == 2 ? 2 : gap == 3 ? 4 : 5;
  if (gap <= 1 && high < 10) score += 1;
  return static_cast<int>(std::ceil(score));
}

// How the hole cards work with the board: 4 = a monster (a full house or four of a kind using a hole
// card), 3 = a very strong made hand (two pair with both hole cards on
// an unpaired board, trips or better using a hole card, a straight), 2 = a pair using a hole card, 1 = a
// strong draw, 0 = nothing of its own.
int PostFlopStrength(const std::vector<int>& hole, const std::vector<int>& board) {
  std::array<int, 13> all{}, on_board{};
  std::array<int, 4> suits{};
  for (int c : board) on_board[Rank(c)]++, all[Rank(c)]++, suits[Suit(c)]++;
  for (int c : hole) all[Rank(c)]++, suits[Suit(c)]++;
  int paired_with_hole = 0, board_pairs = 0, trips_or_better = 0, pair_ranks = 0, trip_ranks = 0, quads = 0;
  for (int r = 0; r < 13; r++) {
    if (all[r] >= 2 && all[r] > on_board[r]) paired_with_hole++;
    if (all[r] >= 3 && all[r] > on_board[r]) trips_or_better++;
    if (on_board[r] >= 2) board_pairs++;
    if (all[r] >= 2) pair_ranks++;
    if (all[r] >= 3) trip_ranks++;
    if (all[r] == 4 && on_board[r] < 4) quads++;
  }
  if (quads || (trip_ranks && pair_ranks >= 2 && paired_with_hole)) return 4;
  if (trips_or_better || (paired_with_hole >= 2 && board_pairs == 0)) return 3;
  if (paired_with_hole) return 2;
  bool flush_draw = false;
  for (int s = 0; s < 4; s++)
    flush_draw |= suits[s] >= 4 && (Suit(hole[0]) == s || Suit(hole[1]) == s);
  int run = 0, best_run = 0;
  for (int r = -1; r < 13; r++) {  // r = -1 is the ace played low
    run = all[(r + 13) % 13] ? run + 1 : 0;
    best_run = std::max(best_run, run);
  }
  if (best_run >= 5) return 3;
  return (flush_draw || best_run == 4) && board.size() < 5 ? 1 : 0;
}

int ReadMoney(int seat) {
  std::ifstream in("deals_money.txt");
  std::string first, second;
  int money = 1500;
  while (in >> first >> second)
    if (first != "Deal" && IsNumber(first) && IsNumber(second) && std::stoi(first) == seat) money = std::stoi(second);
  return money;
}

}  // namespace

int main() {
  std::vector<int> numbers;
  std::ifstream input("inputf.txt");
  for (std::string w; input >> w && numbers.size() < 4;) numbers.push_back(IsNumber(w) ? std::stoi(w) : 0);
  numbers.resize(4, 0);
  const std::vector<int> hole = {numbers[0], numbers[1]};
  const int seat = numbers[2], spent = numbers[3];

  std::ifstream deal_file("deal.txt");
  const Deal deal(deal_file);
  if (deal.stage == "Show_Down") return 0;

  const std::string round = deal.CurrentRound();
  const auto totals = deal.Totals(round);
  int highest = 0;
  for (const auto& [s, t] : totals) highest = std::max(highest, t);
  const int mine = totals.count(seat) ? totals.at(seat) : 0;
  const int to_call = std::max(0, highest - mine);
  const int behind = ReadMoney(seat) - spent - to_call;  // chips left after calling
  const int min_raise = deal.MinRaise(round);
  const int raises = deal.Raises(round);
  const int pot_after_call = deal.pot + to_call;
  // A raise of about `wanted`: at least the minimum raise; the whole stack only when `commit`, else at
  // most a third of the chips behind (a call when the minimum raise is already beyond that).
  const bool monster = round == "Pre_Flop" ? ChenScore(hole[0], hole[1]) >= kMonsterScore
                                           : PostFlopStrength(hole, deal.board) == 4;
  auto raise_by = [&](int wanted, bool commit) {
    if (behind <= 0) return 0;  // calling is already all-in
    int amount = std::max(wanted, min_raise);
    if (!monster && spent + to_call + amount > kDeep) return 0;  // deep in the deal: no more raising
    if (commit) return std::min(amount, behind);
    amount = std::min(amount, behind / 3);
    return amount >= min_raise ? amount : 0;
  };

  int answer = to_call > 0 ? -10 : 0;
  if (round == "Pre_Flop") {
    const int score = ChenScore(hole[0], hole[1]);
    const bool premium = score >= kPremiumScore;
    const bool reraised = raises >= 2 || to_call > 6 * kBigBlind;
    if (!reraised) {
      const int raise_score = raises == 0 ? kRaiseScore : kDefendScore;  // opens wide, 3-bets tighter
      if (score >= raise_score) answer = raise_by(pot_after_call, premium);
      else if (score >= kCallScore && to_call <= 6 * kBigBlind) answer = 0;
    } else if (premium) {
      answer = raise_by(pot_after_call, true);
    } else if (score >= kDefendScore && to_call * 8 <= behind + to_call) {
      answer = 0;
    }
  } else {
    const int strength = PostFlopStrength(hole, deal.board);
    if (strength >= 3) answer = raise_by(pot_after_call, true);
    else if (strength == 2 && raises == 0) answer = raise_by(pot_after_call * 3 / 4, false);
    else if (strength == 2) answer = to_call * 3 <= deal.pot && to_call * 3 <= behind + to_call ? 0 : -10;
    else if (strength == 1) answer = to_call == 0 ? raise_by(pot_after_call / 2, false) : (to_call * 3 <= deal.pot ? 0 : -10);
  }
  // Past kDeep chips in the deal only a monster goes on against a bet bigger than the pot before it.
  if (!monster && answer == 0 && spent + to_call > kDeep && to_call * 2 > deal.pot) answer = -10;
  std::ofstream("outputf.txt") << answer << "\n";
  return 0;
}
