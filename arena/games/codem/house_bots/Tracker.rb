# Tracker: a Code'em Poker team program (Ruby) that keeps statistics on its opponents and adapts.
#
# Help files (folder tracker/, two files):
#   tracker/stats.txt      one line per seat: hands dealt, hands played voluntarily pre-flop (VPIP),
#                          raises and calls (aggression = raises / calls); the first line names the last
#                          deal counted, so a deal is never counted twice.
#   tracker/last_deal.txt  the latest deal.txt seen at a decision, so that a deal won by everyone else
#                          folding (no Show_Down run) is still counted at the first run of the next deal.
# At every Show_Down run the complete deal.txt is counted.
#
# Play: hands are strong, medium or weak (pre-flop by cards; later by what the hole cards add to the
# board; two pair with the board's pair counts as one pair). Strong hands raise two thirds of the pot,
# but only the best of them (Q-Q and better, A-K pre-flop; trips or better later) raise again after two
# raises in the round or raise a bet that costs more than a quarter of the stack: the others call.
# Deep stacks: once the deal would hold more than DEEP (100 big blinds) of its chips, only a monster
# (A-A, a full house or better) raises, and anything else folds to a bet bigger than the pot before it.
# Medium hands call reasonable bets; weak hands check or fold. Against the seat that made the
# highest bet this round: a loose player (VPIP above 45%) is called down with medium hands; a loose
# aggressive one (VPIP 25% or more, aggression 1.5 or more) is called with medium hands up to 10 big
# blinds pre-flop and up to the pot later, as its raises come from a wide range; a tight aggressive one
# (VPIP below 25%, aggression 1.5 or more) gets medium hands folded. Statistics count only after 15
# hands of a seat.
#
# Files: reads inputf.txt, deals_money.txt, deal.txt (split on white space); writes one integer to
# outputf.txt, nothing at Stage Show_Down.
require 'fileutils'

HELP_DIR = 'tracker'
STATS = File.join(HELP_DIR, 'stats.txt')
SNAPSHOT = File.join(HELP_DIR, 'last_deal.txt')
BIG_BLIND = 10
MIN_HANDS = 15
DEEP = 100 * BIG_BLIND # chips in one deal past which only a monster raises
BOARD_CARDS = { 'Pre_Flop' => 0, 'Flop' => 3, 'Fourth_Street' => 1, 'Fifth_Street' => 1 }.freeze

def slurp(path)
  File.exist?(path) ? File.read(path) : ''
rescue SystemCallError
  ''
end

def number?(word)
  word.match?(/\A-?\d+\z/)
end

def rank(card) = (card - 1) % 13
def suit(card) = (card - 1) / 13

# deal.txt, read by white space: stage, pot, board and each round's actions [seat, action, total] in order.
class Deal
  attr_reader :stage, :pot, :board, :rounds, :folded

  def initialize(text)
    @stage = ''
    @pot = 0
    @board = []
    @rounds = {}
    @folded = {}
    current = ''
    header = []
    board_left = 0
    text.each_line do |line|
      words = line.split
      next if words.empty?

      head = words[0]
      if words.size >= 2 && head == 'Stage'
        @stage = words[1]
      elsif words.size >= 2 && head == 'Main_Pot'
        @pot = words[1].to_i
      elsif words.size == 1 && (BOARD_CARDS.key?(head) || head == 'Show_Down')
        current = head
        header = []
        board_left = BOARD_CARDS.fetch(head, 0)
        @rounds[current] ||= []
      elsif current.empty? || current == 'Show_Down' || head == 'End'
        next
      elsif words.all? { |w| number?(w) }
        if board_left.positive?
          @board.concat(words.first(board_left).map(&:to_i))
          board_left = 0
        elsif header.empty?
          header = words.map(&:to_i)
        end
      else
        read_row(words, header, @rounds[current])
      end
    end
  end

  def read_row(words, header, actions)
    column = 0
    i = 0
    while i < words.size
      if words[i] == '-'
        column += 1
      elsif %w[Call Rise Fold].include?(words[i]) && i + 1 < words.size && number?(words[i + 1])
        seat = header[column] || column + 1
        actions << [seat, words[i], words[i + 1].to_i]
        @folded[seat] = true if words[i] == 'Fold'
        column += 1
        i += 1
      end
      i += 1
    end
  end

  def current_round
    return @stage if @rounds.key?(@stage)

    BOARD_CARDS.keys.reverse.find { |name| @rounds.key?(name) } || 'Pre_Flop'
  end

  def totals(round)
    (@rounds[round] || []).each_with_object({}) { |(seat, _action, total), sums| sums[seat] = total }
  end

  def min_raise(round)
    opening = %w[Pre_Flop Flop].include?(round) ? BIG_BLIND : 2 * BIG_BLIND
    levels = (@rounds[round] || []).select { |_s, action, _t| action == 'Rise' }.map(&:last).uniq.sort
    ([0] + levels).each_cons(2).map { |a, b| b - a }.push(opening).max
  end
end

# Opponent statistics: seat => [hands, vpip, raises, calls].
class Stats
  attr_reader :last_deal

  def initialize
    @table = Hash.new { |hash, seat| hash[seat] = [0, 0, 0, 0] }
    lines = slurp(STATS).lines.map(&:split)
    @last_deal = lines.first && lines.first[0] == 'Deal' ? lines.first[1].to_i : 0
    lines.drop(1).each { |w| @table[w[0].to_i] = w[1, 4].map(&:to_i) if w.size == 5 }
  end

  def count(deal, deal_number)
    return if deal_number <= @last_deal

    seen = {}
    voluntary = {}
    deal.rounds.each do |round, actions|
      put = Hash.new(0)
      actions.each do |seat, action, total|
        blind = round == 'Pre_Flop' && !seen.key?(seat) && action == 'Rise' && total <= BIG_BLIND
        seen[seat] = true
        if !blind && action == 'Rise'
          @table[seat][2] += 1
        elsif !blind && action == 'Call' && total > put[seat]
          @table[seat][3] += 1
        end
        voluntary[seat] = true if round == 'Pre_Flop' && !blind && action != 'Fold' && total > put[seat]
        put[seat] = total
      end
    end
    seen.each_key do |seat|
      @table[seat][0] += 1
      @table[seat][1] += 1 if voluntary[seat]
    end
    @last_deal = deal_number
  end

  def save
    FileUtils.mkdir_p(HELP_DIR)
    lines = ["Deal #{@last_deal}"] + @table.keys.sort.map { |seat| "#{seat} #{@table[seat].join(' ')}" }
    File.write("#{STATS}.tmp", lines.join("\n") + "\n")
    File.rename("#{STATS}.tmp", STATS)
  end

  # :loose, :loose_aggressive, :tight_aggressive or :unknown.
  def style(seat)
    hands, vpip, raises, calls = @table.fetch(seat, [0, 0, 0, 0])
    return :unknown if hands < MIN_HANDS

    rate = vpip.to_f / hands
    aggressive = raises >= 1.5 * [calls, 1].max
    return :loose_aggressive if rate >= 0.25 && aggressive
    return :loose if rate > 0.45
    return :tight_aggressive if rate < 0.25 && aggressive

    :unknown
  end
end

# 0 high card .. 8 straight flush, for the best five of the cards.
def category(cards)
  counts = cards.map { |c| rank(c) }.tally.values.sort.reverse + [0, 0]
  straight = lambda do |ranks|
    set = ranks.uniq
    set << -1 if set.include?(12)
    (-1..8).any? { |low| (low..low + 4).all? { |r| set.include?(r) } }
  end
  flush = cards.group_by { |c| suit(c) }.values.find { |same| same.size >= 5 }
  return 8 if flush && straight.call(flush.map { |c| rank(c) })
  return 7 if counts[0] >= 4
  return 6 if counts[0] == 3 && counts[1] >= 2
  return 5 if flush
  return 4 if straight.call(cards.map { |c| rank(c) })
  return 3 if counts[0] == 3
  return 2 if counts[0] == 2 && counts[1] == 2

  counts[0] == 2 ? 1 : 0
end

# A-A pre-flop, a full house or better of its own later.
def monster?(hole, board)
  return hole.all? { |c| rank(c) == 12 } if board.empty?

  mine = category(hole + board)
  mine >= 6 && mine > category(board)
end

# The best of the strong hands: Q-Q and better or A-K pre-flop, trips or better with a hole card later.
def premium?(hole, board)
  high, low = hole.map { |c| rank(c) }.sort.reverse
  return (high == low && high >= 10) || (high == 12 && low == 11) if board.empty?

  mine = category(hole + board)
  mine >= 3 && mine > category(board)
end

def strength(hole, board)
  if board.empty?
    high, low = hole.map { |c| rank(c) }.sort.reverse
    return :strong if (high == low && high >= 8) || (high == 12 && low >= 10 && (low == 11 || suit(hole[0]) == suit(hole[1])))
    return :medium if high == low || low >= 8 || (high == 12 && suit(hole[0]) == suit(hole[1])) ||
                      (high - low == 1 && suit(hole[0]) == suit(hole[1]))

    return :weak
  end
  mine = category(hole + board)
  shared = category(board)
  return :weak if mine <= shared
  return :medium if mine == 2 && shared == 1 # two pair with the board's pair: one pair of its own

  mine >= 2 ? :strong : :medium
end

def main
  numbers = slurp('inputf.txt').split.map { |w| number?(w) ? w.to_i : 0 } + [0, 0, 0, 0]
  hole = numbers[0, 2]
  seat = numbers[2]
  spent = numbers[3]
  money_words = slurp('deals_money.txt').lines.map(&:split)
  deal_number = money_words.find { |w| w[0] == 'Deal' }&.at(1).to_i
  money = money_words.select { |w| w.size >= 2 && number?(w[0]) && number?(w[1]) }.to_h { |w| w.map(&:to_i) }
  deal_text = slurp('deal.txt')
  deal = Deal.new(deal_text)

  stats = Stats.new
  snapshot = slurp(SNAPSHOT)
  snapshot_deal = snapshot.lines.first.to_s.split[1].to_i
  stats.count(Deal.new(snapshot.lines.drop(1).join), snapshot_deal) if snapshot_deal < deal_number
  if deal.stage == 'Show_Down'
    stats.count(deal, deal_number)
    stats.save
    return
  end
  stats.save
  File.write(SNAPSHOT, "Deal #{deal_number}\n#{deal_text}")

  round = deal.current_round
  totals = deal.totals(round)
  highest = totals.values.max || 0
  to_call = [highest - totals.fetch(seat, 0), 0].max
  behind = money.fetch(seat, 1500) - spent - to_call
  pot = deal.pot + to_call
  raise_by = lambda do |wanted|
    behind <= 0 ? 0 : [[wanted, deal.min_raise(round)].max, behind].min
  end

  bettor = totals.select { |s, t| t == highest && s != seat }.keys.first
  style = to_call.positive? && bettor ? stats.style(bettor) : :unknown
  # the largest call for a medium hand: pre-flop in big blinds; later a bet of half the pot before it
  # (the whole pot against a loose aggressive bettor), as deal.pot already holds the bet
  limit = round == 'Pre_Flop' ? 4 * BIG_BLIND : deal.pot / 3
  limit = [round == 'Pre_Flop' ? 10 * BIG_BLIND : deal.pot / 2, (behind + to_call) / 8].min if style == :loose_aggressive
  big_bet = to_call * 4 > behind + to_call
  answer = to_call.positive? ? -10 : 0
  case strength(hole, deal.board)
  when :strong
    war = (deal.rounds[round] || []).count { |_s, action, total| action == 'Rise' && total > BIG_BLIND } >= 2
    calls_only = (style == :tight_aggressive && to_call > pot / 2) ||
                 ((big_bet || war) && !premium?(hole, deal.board))
    answer = calls_only ? 0 : raise_by.call(pot * 2 / 3)
  when :medium
    answer = 0 if to_call <= limit || style == :loose
    answer = -10 if to_call.positive? && style == :tight_aggressive
  end
  unless monster?(hole, deal.board) # deep in the deal: no more raising, no calling of big bets
    answer = 0 if answer.positive? && spent + to_call + answer > DEEP
    answer = -10 if answer.zero? && spent + to_call > DEEP && to_call * 2 > deal.pot
  end
  File.write('outputf.txt', "#{answer}\n")
end

main
