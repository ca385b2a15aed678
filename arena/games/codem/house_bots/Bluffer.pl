#!/usr/bin/perl
# Bluffer: a Code'em Poker team program (Perl 5) that plays fair hands straight and sometimes bluffs.
#
# Fair play: pre-flop a simple points count (high cards, pair, suited, connected) decides fold, call or
# raise; after the flop the made hand (best five of seven) against the board decides. Facing a big
# raise (more than 5 big blinds pre-flop, more than half the pot before it later) medium hands fold:
# pre-flop only Q-Q and better raise again and only J-J, T-T, A-K suited call (a price of at most a
# quarter of the stack); later only trips or better raise, two pair of its own (not the board's pair)
# bets when checked to, and two pair or one pair calls a bet of up to half the pot. The whole stack
# goes in only with Q-Q and better pre-flop or trips or better later, and once the deal would hold
# more than $DEEP (100 big blinds) of its chips only a monster (A-A, a full house or better) raises
# and anything else folds to a bet bigger than the pot before it.
# Bluffs: in late position (the dealer or the seat on its right, or when at most one live seat acts after
# it) and when nobody has bet yet this round, it bets a weak hand with probability $BLUFF_RATE, sized at
# a third of the pot; never all-in (no bluff when the bet would be more than a third of its chips).
# The random numbers come from a small generator seeded with a hash of the three input files, so the
# same files always give the same answer.
#
# Files: reads inputf.txt, deals_money.txt, deal.txt (split on white space); writes one integer to
# outputf.txt, nothing at Stage Show_Down. No help files.
use strict;
use warnings;

my $BLUFF_RATE = 0.30;
my $BIG_BLIND  = 10;
my $DEEP       = 100 * $BIG_BLIND;   # chips in one deal past which only a monster raises
my %BOARD_CARDS = (Pre_Flop => 0, Flop => 3, Fourth_Street => 1, Fifth_Street => 1);

sub slurp {
    my ($path) = @_;
    open(my $fh, '<', $path) or return '';
    local $/;
    my $text = <$fh>;
    close $fh;
    return defined $text ? $text : '';
}

sub rank { return ($_[0] - 1) % 13 }             # 0 = two .. 12 = ace
sub suit { return int(($_[0] - 1) / 13) }

# A reproducible generator: FNV-1a hash of the input files as the seed, then xorshift32 draws in [0, 1).
my $state;
sub seed_from {
    my $hash = 2166136261;
    for my $byte (unpack('C*', $_[0])) {
        $hash = (($hash ^ $byte) * 16777619) % 4294967296;
    }
    $state = $hash || 1;
}
sub draw {
    $state ^= ($state << 13) & 0xFFFFFFFF;
    $state ^= $state >> 17;
    $state ^= ($state << 5) & 0xFFFFFFFF;
    return $state / 4294967296;
}

# deal.txt, read by white space: stage, pot, dealer, board cards and each round's actions in order.
sub read_deal {
    my ($text) = @_;
    my %deal = (stage => '', pot => 0, dealer => 0, board => [], rounds => {}, folded => {});
    my ($current, $board_left, @header) = ('', 0);
    for my $line (split /\n/, $text) {
        my @words = split ' ', $line;
        next unless @words;
        my $head = $words[0];
        if (@words >= 2 && $head eq 'Stage')    { $deal{stage}  = $words[1]; next }
        if (@words >= 2 && $head eq 'Main_Pot') { $deal{pot}    = int($words[1]) if $words[1] =~ /^\d+$/; next }
        if (@words >= 2 && $head eq 'Dealer')   { $deal{dealer} = int($words[1]) if $words[1] =~ /^\d+$/; next }
        if (@words == 1 && (exists $BOARD_CARDS{$head} || $head eq 'Show_Down')) {
            ($current, @header) = ($head);
            $board_left = $BOARD_CARDS{$head} // 0;
            $deal{rounds}{$current} ||= [];
            next;
        }
        next if $current eq '' || $current eq 'Show_Down' || $head eq 'End';
        if (!grep { !/^-?\d+$/ } @words) {
            if ($board_left > 0) {
                push @{ $deal{board} }, @words[0 .. ($board_left < @words ? $board_left : @words) - 1];
                $board_left = 0;
            } elsif (!@header) {
                @header = @words;
            }
            next;
        }
        my $column = 0;
        for (my $i = 0; $i < @words; $i++) {
            if ($words[$i] eq '-') { $column++; next }
            next unless $words[$i] =~ /^(Call|Rise|Fold)$/ && $i + 1 < @words && $words[$i + 1] =~ /^\d+$/;
            my $seat = $column < @header ? $header[$column] : $column + 1;
            push @{ $deal{rounds}{$current} }, [$seat, $words[$i], int($words[$i + 1])];
            $deal{folded}{$seat} = 1 if $words[$i] eq 'Fold';
            $column++;
            $i++;
        }
    }
    return \%deal;
}

# Category of the best five cards: 0 high card, 1 pair, 2 two pair, 3 trips, 4 straight, 5 flush,
# 6 full house, 7 quads, 8 straight flush.
sub category {
    my @cards = @_;
    my (%count, %by_suit);
    for my $c (@cards) { $count{rank($c)}++; push @{ $by_suit{suit($c)} }, rank($c) }
    my $straight = sub {
        my %has = map { $_ => 1 } @_;
        $has{-1} = 1 if $has{12};
        for my $low (-1 .. 8) { return 1 unless grep { !$has{$low + $_} } 0 .. 4 }
        return 0;
    };
    my ($flush) = grep { @{ $by_suit{$_} } >= 5 } keys %by_suit;
    return 8 if defined $flush && $straight->(@{ $by_suit{$flush} });
    my @counts = sort { $b <=> $a } values %count;
    push @counts, 0, 0;
    return 7 if $counts[0] >= 4;
    return 6 if $counts[0] == 3 && $counts[1] >= 2;
    return 5 if defined $flush;
    return 4 if $straight->(keys %count);
    return 3 if $counts[0] == 3;
    return 2 if $counts[0] == 2 && $counts[1] == 2;
    return $counts[0] == 2 ? 1 : 0;
}

sub preflop_points {
    my ($c1, $c2) = @_;
    my ($high, $low) = sort { $b <=> $a } (rank($c1), rank($c2));
    my $points = $high + $low;                     # 1 (2-3) .. 24 (A-A)
    $points += 10 if $high == $low;
    $points += 2 if suit($c1) == suit($c2);
    $points += 1 if $high - $low == 1;
    return $points;
}

my @hand = split ' ', slurp('inputf.txt');
my ($c1, $c2, $seat, $spent) = map { defined $_ && /^-?\d+$/ ? int($_) : 0 } @hand[0 .. 3];
my $money_text = slurp('deals_money.txt');
my $deal_text = slurp('deal.txt');
my $deal = read_deal($deal_text);
exit 0 if $deal->{stage} eq 'Show_Down';
seed_from(slurp('inputf.txt') . $money_text . $deal_text);

my %money;
for my $line (split /\n/, $money_text) {
    my @w = split ' ', $line;
    $money{$w[0]} = $w[1] if @w >= 2 && $w[0] =~ /^\d+$/ && $w[1] =~ /^\d+$/;
}
my @seats = sort { $a <=> $b } grep { $money{$_} > 0 } keys %money;
@seats = (1 .. 6) unless @seats;

my $round = exists $deal->{rounds}{ $deal->{stage} } ? $deal->{stage}
          : (grep { exists $deal->{rounds}{$_} } qw(Pre_Flop Flop Fourth_Street Fifth_Street))[-1] // 'Pre_Flop';
my %total;
$total{ $_->[0] } = $_->[2] for @{ $deal->{rounds}{$round} || [] };
my ($highest) = sort { $b <=> $a } (values %total, 0);
my $to_call = $highest - ($total{$seat} // 0);
my $behind = ($money{$seat} // 1500) - $spent - $to_call;

# The minimum raise: the opening minimum, or the largest step between this round's Rise totals.
my $min_raise = ($round eq 'Pre_Flop' || $round eq 'Flop') ? $BIG_BLIND : 2 * $BIG_BLIND;
my %levels = map { $_->[2] => 1 } grep { $_->[1] eq 'Rise' } @{ $deal->{rounds}{$round} || [] };
my $previous = 0;
for my $level (sort { $a <=> $b } keys %levels) {
    $min_raise = $level - $previous if $level - $previous > $min_raise;
    $previous = $level;
}
# A raise of about $wanted: at least the minimum raise; the whole stack only when $commit, else at most
# a third of the chips behind (0, a call or a check, when the minimum raise is already beyond that).
my $monster = 0;    # A-A pre-flop, a full house or better of its own later
sub raise_by {
    my ($wanted, $commit) = @_;
    return 0 if $behind <= 0;
    $wanted = $min_raise if $wanted < $min_raise;
    return 0 if !$monster && $spent + $to_call + $wanted > $DEEP;    # deep in the deal: no more raising
    return $wanted > $behind ? $behind : $wanted if $commit;
    my $cap = int($behind / 3);
    $wanted = $cap if $wanted > $cap;
    return $wanted >= $min_raise ? $wanted : 0;
}

# Late position: few live seats sit between this seat and the dealer going left (the dealer acts last
# after the flop), so few players are left to act after this one.
my @live = grep { !$deal->{folded}{$_} && $_ != $seat } @seats;
my $after = 0;
if ($seat != $deal->{dealer}) {
    my ($n) = sort { $b <=> $a } (keys %money, $seat, 2);    # seats around the table
    for my $step (1 .. $n) {
        my $other = ($seat - 1 + $step) % $n + 1;
        $after++ if grep { $_ == $other } @live;
        last if $other == $deal->{dealer};
    }
}
my $late = $seat == $deal->{dealer} || $after <= 1;

my $answer = $to_call > 0 ? -10 : 0;
my $pot = $deal->{pot} + $to_call;
if ($round eq 'Pre_Flop') {
    my $points = preflop_points($c1, $c2);
    $monster = $points >= 34;
    if ($to_call > 5 * $BIG_BLIND) {                         # a big raise: only the top hands go on
        if ($points >= 30)                                       { $answer = raise_by($pot, 1) }
        elsif ($points >= 25 && $to_call * 4 <= $behind + $to_call) { $answer = 0 }
    }
    elsif ($points >= 22)                                { $answer = raise_by($pot, $points >= 30) }
    elsif ($points >= 16)                                { $answer = 0 }
    elsif ($points >= 12 && $to_call <= $BIG_BLIND)      { $answer = 0 }
} else {
    my $mine = category($c1, $c2, @{ $deal->{board} });
    my $shared = category(@{ $deal->{board} });
    my $made = $mine > $shared ? $mine : 0;          # what the hole cards add to the board
    $made = 1 if $made == 2 && $shared == 1;          # two pair with the board's pair: one pair of its own
    $monster = $made >= 6;
    my $big = $to_call * 3 > $deal->{pot};           # a bet of more than half the pot before it
    if ($made >= 3)                            { $answer = raise_by(int($pot * 2 / 3), 1) }
    elsif ($made == 2 && $to_call == 0)        { $answer = raise_by(int($pot * 2 / 3), 0) }
    elsif ($made == 2 && !$big)                { $answer = 0 }
    elsif ($made == 1 && !$big)                { $answer = 0 }
}
# Past $DEEP chips in the deal only a monster goes on against a bet bigger than the pot before it.
$answer = -10 if !$monster && $answer == 0 && $spent + $to_call > $DEEP && $to_call * 2 > $deal->{pot};
if ($answer <= 0 && $to_call == 0 && $late && draw() < $BLUFF_RATE) {
    $answer = raise_by(int($pot / 3), 0);             # the bluff: small, never the whole stack
}

open(my $out, '>', 'outputf.txt') or die "cannot write outputf.txt: $!";
print $out "$answer\n";
close $out;
