/* arena view: steps through replay states computed by the server, follows live tables, filters deals.
 * No poker rule lives here: every stack, bet, pot and card comes from the step data (arena/viewer/replay.py).
 * Text from the run is only ever set with textContent, never parsed as HTML. */
"use strict";

(function () {
  const SUITS = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
  const SUIT_NAMES = { s: "spades", h: "hearts", d: "diamonds", c: "clubs" };
  const RANK_NAMES = {
    2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
    T: "ten", J: "jack", Q: "queen", K: "king", A: "ace",
  };
  const BLINDS = { small: "SB", big: "BB" };
  const POSITIONS = { 2: [1, 4], 3: [1, 3, 5], 4: [2, 3, 5, 6], 5: [1, 2, 3, 5, 6], 6: [1, 2, 3, 4, 5, 6] };

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = String(text);
    return node;
  }

  function cardEl(code, hidden) {
    const card = el("span", "card");
    card.setAttribute("role", "img");
    if (!code || hidden) {
      card.classList.add("back");
      card.setAttribute("aria-label", "face-down card");
      return card;
    }
    card.classList.add("suit-" + code[1]);
    card.dataset.card = code;
    card.setAttribute("aria-label", RANK_NAMES[code[0]] + " of " + SUIT_NAMES[code[1]]);
    card.append(el("span", "rank", code[0] === "T" ? "10" : code[0]));
    const suit = el("span", "suit", SUITS[code[1]]);
    suit.setAttribute("aria-hidden", "true");
    card.append(suit);
    return card;
  }

  function keepInView(box, item) {
    // Scroll the log only (scrollIntoView would scroll the whole page as well).
    const top = item.offsetTop;
    const bottom = top + item.offsetHeight;
    if (top < box.scrollTop) box.scrollTop = top;
    else if (bottom > box.scrollTop + box.clientHeight) box.scrollTop = bottom - box.clientHeight;
  }

  function readJson(id) {
    const node = document.getElementById(id);
    return node ? JSON.parse(node.textContent) : null;
  }

  /* ---- the table on the felt ---- */

  function buildFelt(stage, names, count) {
    let felt = document.getElementById("felt");
    if (felt && felt.querySelectorAll(".seat").length === count) return felt;
    const waiting = document.getElementById("waiting");
    if (waiting) waiting.remove();
    const fresh = el("div", "felt");
    fresh.id = "felt";
    fresh.dataset.seats = String(count);
    const positions = POSITIONS[count] || POSITIONS[6];
    for (let i = 0; i < count; i++) {
      const seat = el("div", "seat pos" + positions[i]);
      seat.dataset.seat = String(i + 1);
      const label = el("div", "seat-name");
      label.append(el("span", "seat-no", i + 1), " ", el("span", "name", names[i] || "seat " + (i + 1)));
      const stackLine = el("div", "stack-line");
      stackLine.append(el("span", "stack"), " ", el("span", "bb"), el("span", "state"));
      const button = el("span", "dealer-button", "D");
      button.title = "dealer button";
      const blind = el("span", "blind-badge");
      const bet = el("div", "bet");
      const chip = el("span", "chip");
      chip.setAttribute("aria-hidden", "true");
      bet.append(chip, el("span", "bet-amount"));
      seat.append(label, el("div", "hole"), stackLine, el("div", "hand-name"), button, blind, bet);
      fresh.append(seat);
    }
    const middle = el("div", "middle");
    const total = el("div", "pot-total", "Pot ");
    total.append(el("span", "pot-amount"), " ", el("span", "bb"));
    middle.append(el("div", "board"), total, el("ul", "pots"), el("div", "street"));
    fresh.append(middle);
    if (felt) felt.replaceWith(fresh);
    else stage.prepend(fresh);
    return fresh;
  }

  function nameOf(names, seat) {
    return names[seat - 1] || "seat " + seat;
  }

  function inBigBlinds(amount, bigBlind) {
    return bigBlind ? Math.round((10 * amount) / bigBlind) / 10 + " bb" : "";
  }

  function drawDecision(box, names, step, bigBlind) {
    if (!box) return;
    box.hidden = step.to_act === null || step.to_act === undefined;
    if (box.hidden) { box.textContent = ""; return; }
    let text = nameOf(names, step.to_act) + " to act: ";
    if (step.to_call) {
      text += step.to_call + " to call (" + inBigBlinds(step.to_call, bigBlind) + "), pot odds " +
        (100 * step.pot_odds).toFixed(1) + "%";
    } else {
      text += "nothing to call";
    }
    box.textContent = text;
  }

  function drawEquity(box, names, step) {
    if (!box) return;
    const shares = step.equity || [];
    box.hidden = shares.length === 0;
    box.textContent = shares.length === 0 ? "" : "All-in, equity: " +
      shares.map((e) => nameOf(names, e.seat) + " " + (100 * e.share).toFixed(1) + "%").join(" \u00B7 ");
  }

  function drawStep(felt, names, step, hideCards, bigBlind) {
    const winners = new Set();
    step.pots.forEach((pot) => pot.awarded && pot.winners.forEach((w) => winners.add(w)));
    felt.dataset.pot = String(step.pot);
    step.seats.forEach((s) => {
      const seat = felt.querySelector('.seat[data-seat="' + s.seat + '"]');
      if (!seat) return;
      seat.dataset.stack = String(s.stack);
      seat.querySelector(".name").textContent = nameOf(names, s.seat);
      seat.querySelector(".stack").textContent = String(s.stack);
      const stackBb = seat.querySelector(".bb");
      if (stackBb) stackBb.textContent = inBigBlinds(s.stack, bigBlind);
      seat.querySelector(".state").textContent = s.all_in ? "all-in" : s.folded ? "folded" : "";
      seat.querySelector(".hand-name").textContent = s.hand;
      seat.classList.toggle("out", !s.in_deal);
      seat.classList.toggle("folded", s.folded);
      seat.classList.toggle("all-in", s.all_in);
      seat.classList.toggle("actor", step.actor === s.seat);
      seat.classList.toggle("winner", winners.has(s.seat));
      seat.querySelector(".dealer-button").hidden = step.dealer !== s.seat;
      const blind = seat.querySelector(".blind-badge");
      blind.hidden = !s.blind;
      blind.textContent = BLINDS[s.blind] || "";
      blind.title = s.blind ? s.blind + " blind" : "";
      const bet = seat.querySelector(".bet");
      bet.hidden = !s.bet;
      bet.dataset.bet = String(s.bet);
      bet.querySelector(".bet-amount").textContent = String(s.bet);
      const hole = seat.querySelector(".hole");
      hole.replaceChildren(...s.cards.map((code) => cardEl(code, hideCards && !s.shown)));
    });
    felt.querySelector(".board").replaceChildren(...step.board.map((code) => cardEl(code, false)));
    const total = felt.querySelector(".pot-total");
    total.dataset.pot = String(step.pot);
    total.querySelector(".pot-amount").textContent = String(step.pot);
    const potBb = total.querySelector(".bb");
    if (potBb) potBb.textContent = inBigBlinds(step.pot, bigBlind);
    felt.querySelector(".pots").replaceChildren(
      ...step.pots.map((pot) => {
        let text = pot.name + " " + pot.amount;
        if (pot.awarded) {
          text += ": " + pot.winners.map((w, i) => nameOf(names, w) + " " + pot.shares[i]).join(", ");
          if (pot.hand) text += " with " + pot.hand;
        }
        const item = el("li", "pot" + (pot.awarded ? " awarded" : ""), text);
        item.dataset.amount = String(pot.amount);
        return item;
      })
    );
    felt.querySelector(".street").textContent = step.street;
  }

  /* ---- the replay: controls, keys, log ---- */

  function Replay(root, data) {
    const stage = root.querySelector(".stage");
    const log = document.getElementById("log");
    const slider = document.getElementById("slider");
    const count = document.getElementById("step-count");
    const playButton = document.getElementById("btn-play");
    const pace = document.getElementById("pace");
    const hide = document.getElementById("hide-cards") || { checked: false, addEventListener: () => {} };
    const broadcastButton = document.getElementById("btn-broadcast");
    const faultBox = document.getElementById("fault-box");
    const decision = document.getElementById("decision");
    const params = new URLSearchParams(window.location.search);
    // A deal watched a secret way comes a step at a time from the server; live, the log grows as the
    // deal is played. Either way nothing of the future is put in the page.
    const stepsUrl = root.dataset.steps || "";
    const growingLog = Boolean(stepsUrl || root.dataset.live);
    const self = { data: data, index: 0, timer: null, onEnd: null };
    let felt = document.getElementById("felt");

    function logItem(step, i) {
      const item = el("li");
      const button = el("button", "", step.text);
      button.type = "button";
      button.dataset.step = String(i);
      item.append(button);
      return item;
    }

    function fetchSteps(index) {
      // Steps from the first not yet known up to index (Infinity: to the end).
      const known = self.data.steps.length;
      if (index < known || !self.data.more) return Promise.resolve();
      const upto = Number.isFinite(index) ? index : -1;
      return window.fetch(stepsUrl + "&from=" + known + "&step=" + upto, { cache: "no-store" })
        .then((response) => response.json())
        .then((part) => {
          if (self.data.steps.length !== known) return;
          self.data.steps.push(...part.steps);
          self.data.more = part.more;
          self.data.other_faults = part.other_faults;
        });
    }

    function go(index) {
      if (!self.data) return Promise.resolve();
      return fetchSteps(index).then(() => show(index));
    }

    function show(index) {
      if (!self.data) return;
      const steps = self.data.steps;
      self.index = Math.max(0, Math.min(index, steps.length - 1));
      const step = steps[self.index];
      felt = buildFelt(stage, self.data.names, step.seats.length);
      drawStep(felt, self.data.names, step, hide.checked, self.data.big_blind);
      drawDecision(decision, self.data.names, step, self.data.big_blind);
      drawEquity(document.getElementById("equity"), self.data.names, step);
      slider.max = String(steps.length - 1);
      slider.value = String(self.index);
      count.textContent = "step " + (self.index + 1) + (self.data.more ? "" : " of " + steps.length);
      if (growingLog) {
        const items = log.children;
        for (let i = items.length; i <= self.index; i++) log.append(logItem(steps[i], i));
      }
      log.querySelectorAll("button").forEach((button, i) => {
        if (i === self.index) {
          button.setAttribute("aria-current", "step");
          keepInView(log, button);
        } else {
          button.removeAttribute("aria-current");
        }
      });
      faultBox.hidden = !step.fault;
      if (step.fault) {
        faultBox.querySelector(".fault-team").textContent = step.fault.team;
        faultBox.querySelector(".fault-kind").textContent = step.fault.kind;
        faultBox.querySelector(".fault-reason").textContent = step.fault.reason;
        faultBox.querySelector(".fault-played").textContent = "default action played: " + step.fault.played;
        const stderr = faultBox.querySelector(".fault-stderr");
        stderr.hidden = !step.fault.stderr;
        stderr.textContent = step.fault.stderr || "";
      }
    }

    function stop() {
      if (self.timer !== null) window.clearTimeout(self.timer);
      self.timer = null;
      playButton.textContent = "\u25B6 play";
      playButton.setAttribute("aria-label", "play");
    }

    function tick() {
      if (self.index < self.data.steps.length - 1 || self.data.more) {
        go(self.index + 1).then(() => {
          if (self.timer !== null) self.timer = window.setTimeout(tick, Number(pace.value));
        });
      } else {
        stop();
        if (self.onEnd) self.onEnd();
      }
    }

    function play() {
      if (self.timer !== null || !self.data) return;
      if (self.index >= self.data.steps.length - 1 && !self.data.more && !root.dataset.live) show(0);
      playButton.textContent = "pause";
      playButton.setAttribute("aria-label", "pause");
      self.timer = window.setTimeout(tick, Number(pace.value));
    }

    function toggle() {
      if (self.timer === null) play();
      else stop();
    }

    function load(deal, index) {
      self.data = deal;
      const shown = growingLog ? deal.steps.slice(0, index + 1) : deal.steps;
      log.replaceChildren(...shown.map(logItem));
      show(index);
    }

    function setBroadcast(on) {
      document.body.classList.toggle("broadcast", on);
      if (broadcastButton) broadcastButton.setAttribute("aria-pressed", on ? "true" : "false");
      hide.checked = on || hide.checked;
      show(self.index);
      if (on) play();
    }

    document.getElementById("btn-first").addEventListener("click", () => { stop(); show(0); });
    document.getElementById("btn-prev").addEventListener("click", () => { stop(); show(self.index - 1); });
    document.getElementById("btn-next").addEventListener("click", () => { stop(); go(self.index + 1); });
    document.getElementById("btn-last").addEventListener("click", () => { stop(); go(Infinity); });
    playButton.addEventListener("click", toggle);
    slider.addEventListener("input", () => { stop(); show(Number(slider.value)); });
    hide.addEventListener("change", () => show(self.index));
    if (broadcastButton) {
      broadcastButton.addEventListener("click", () => setBroadcast(!document.body.classList.contains("broadcast")));
    }
    log.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-step]");
      if (button) { stop(); show(Number(button.dataset.step)); }
    });
    document.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target;
      const tag = target && target.tagName;
      const typing = tag === "SELECT" || tag === "TEXTAREA" || (tag === "INPUT" && target.type !== "checkbox");
      if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
        if (typing) return;
        event.preventDefault();
        stop();
        if (event.key === "ArrowLeft") show(self.index - 1);
        else go(self.index + 1);
      } else if (event.key === " " || event.key === "Spacebar") {
        if (typing || tag === "BUTTON" || tag === "A" || tag === "INPUT") return;
        event.preventDefault();
        toggle();
      } else if (event.key === "Home" && !typing) {
        stop(); show(0);
      } else if (event.key === "End" && !typing) {
        stop(); go(Infinity);
      }
    });

    if (params.get("pace") && /^[0-9]+$/.test(params.get("pace"))) {
      const option = el("option", "", params.get("pace") + " ms");
      option.value = params.get("pace");
      pace.append(option);
      pace.value = option.value;
    }
    if (params.get("hide") === "1") hide.checked = true;
    self.show = show;
    self.play = play;
    self.stop = stop;
    self.load = load;
    self.playing = () => self.timer !== null;
    if (self.data && stepsUrl) {
      show(self.data.steps.length - 1);
    } else if (self.data) {
      const step = params.get("step");
      const fault = self.data.steps.findIndex((s) => s.fault);
      if (step && /^[0-9]+$/.test(step)) show(Number(step));
      else if (window.location.hash === "#fault" && fault >= 0) show(fault);
      else show(0);
    }
    const broadcast = root.dataset.view === "broadcast" || (root.dataset.live && params.get("broadcast") === "1");
    if (broadcast) setBroadcast(true);
    const nextDeal = document.querySelector('a[rel="next"]');
    if (!root.dataset.live && nextDeal) {
      // Broadcast on a played table: at the end of a deal, go on to the next one in the same mode.
      self.onEnd = () => {
        if (!document.body.classList.contains("broadcast")) return;
        const query = new URLSearchParams(window.location.search);
        query.set("view", "broadcast");
        query.set("pace", pace.value);
        query.delete("step");
        window.setTimeout(() => { window.location.href = nextDeal.href.split("?")[0] + "?" + query; },
          3 * Number(pace.value));
      };
    }
    return self;
  }

  /* ---- live: new deals from the server as they are played ---- */

  function dealsPlayed(count) {
    return count + (count === 1 ? " deal" : " deals") + " played";
  }

  function follow(root, replay) {
    const list = document.getElementById("live-deals");
    const status = document.getElementById("live-status");
    const dealLabel = document.getElementById("live-deal");
    const followBox = document.getElementById("follow");
    const table = root.dataset.stream.split("/")[0];
    const queue = [];
    let played = Number(status.dataset.deals);
    let playing = null;

    function listDeal(deal) {
      // A deal goes in the list, with its winners, once it has been replayed (or passed over).
      const item = el("li");
      item.dataset.deal = String(deal.deal);
      const link = el("a", "", "Deal " + deal.deal);
      link.href = "../tables/" + encodeURIComponent(table) + "/deal" + deal.deal + ".html";
      const winners = deal.summary.winners.join(", ");
      item.append(link, ": pot " + deal.summary.pot + (winners ? ", to " + winners : ""));
      list.prepend(item);
    }

    function start(deal) {
      playing = deal;
      dealLabel.textContent = "deal " + deal.deal;
      replay.load(deal, 0);
      replay.play();
    }

    function showNext() {
      if (!followBox.checked) {
        queue.splice(0).forEach(listDeal);
        return;
      }
      if (queue.length === 0 || replay.playing()) return;
      if (queue.length > 3) queue.splice(0, queue.length - 1).forEach(listDeal); // far behind: catch up
      start(queue.shift());
    }

    replay.onEnd = () => {
      if (playing) listDeal(playing);
      playing = null;
      window.setTimeout(showNext, 2 * Number(document.getElementById("pace").value));
    };

    const source = new EventSource(root.dataset.stream + "?after=" + played);
    source.addEventListener("deal", (event) => {
      const deal = JSON.parse(event.data);
      played = Math.max(played, deal.deal);
      status.dataset.deals = String(played);
      status.textContent = dealsPlayed(played);
      queue.push(deal);
      if (!replay.data && followBox.checked) start(queue.shift());
      else showNext();
    });
    source.addEventListener("end", () => {
      status.textContent = dealsPlayed(played) + ": the table is over";
      status.classList.add("over");
      source.close();
    });
    followBox.addEventListener("change", showNext);
  }

  /* ---- the table page's deal list ---- */

  function dealFilters() {
    const filter = document.getElementById("deal-filter");
    const sort = document.getElementById("deal-sort");
    const shown = document.getElementById("deal-shown");
    const body = document.querySelector("#deals tbody");
    if (!filter || !sort || !body) return;
    const rows = Array.from(body.rows);
    const tests = {
      all: () => true,
      showdown: (row) => row.dataset.showdown === "1",
      allin: (row) => row.dataset.allin === "1",
      sidepot: (row) => row.dataset.sidepot === "1",
      big: (row) => row.dataset.big === "1",
      faults: (row) => Number(row.dataset.faults) > 0,
    };
    function apply() {
      const test = tests[filter.value] || tests.all;
      let count = 0;
      rows.forEach((row) => {
        row.hidden = !test(row);
        if (!row.hidden) count++;
      });
      const key = sort.value;
      const ordered = rows.slice().sort((a, b) =>
        key === "deal"
          ? Number(a.dataset.deal) - Number(b.dataset.deal)
          : Number(b.dataset[key]) - Number(a.dataset[key]) || Number(a.dataset.deal) - Number(b.dataset.deal)
      );
      const fragment = document.createDocumentFragment();
      ordered.forEach((row) => fragment.append(row));
      body.append(fragment);
      shown.textContent = count + " deal" + (count === 1 ? "" : "s") + " shown";
    }
    filter.addEventListener("change", apply);
    sort.addEventListener("change", apply);
    apply();
  }

  document.addEventListener("DOMContentLoaded", () => {
    dealFilters();
    const root = document.getElementById("replay");
    if (!root) return;
    const replay = Replay(root, readJson("deal-data"));
    if (root.dataset.live) {
      if (replay.data) replay.show(replay.data.steps.length - 1);
      follow(root, replay);
    }
  });
})();
