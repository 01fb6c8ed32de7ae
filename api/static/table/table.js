// The reference table: one plain script over the session API (openapi.yaml, /docs).
// A page is either the lobby (no session in the URL fragment) or a table:
//   /table#session=<id>&token=<seat token>   that seat (the token never reaches a server log:
//   /table#session=<id>                      browsers do not send the fragment), or a spectator;
//   ...&admin=<admin token>                  either, with the clock controls of the admin.
"use strict";

// Move types named as the rules docs name them (docs/rules/<game>.md, "Moves"); a type missing
// here is shown by its own name.
const MOVE_NAMES = {
  "reign-and-ruin": {
    draft: "Draft", fighter: "Fighter", destroy: "Destroy (Alfenghast)", draw: "Draw (Hexen)",
    double: "Double (Kurgoz)", protect: "Protect (Cognitz)", swap: "Swap (Crou)",
    revive: "Revive (Nomora)",
  },
  "reign-absolute": {
    choose_race: "Race selection", place: "Placement", move: "Move", attack: "Attack",
    doom: "Doom", pass: "Pass", doom_discard: "Doom: discard", bonus_unit: "Eradication bonus",
    reinforce: "Reinforcement", play_turn_card: "Turn card: play",
    discard_turn_card: "Turn card: discard", march: "Forced March", race_action: "Race action",
  },
  "reign-supreme": {
    place: "Setup", deploy: "Deployment", end_deployment: "End deployment", move: "Movement",
    attack: "Attack", pack: "Pack", unpack: "Unpack", cast: "Field spell",
    construct: "Construction", play: "Play a card", counterattack: "Counterattack",
    pass: "Pass (no answer)", end_turn: "End turn", concede: "Concede",
  },
  "reigns-the-council": {
    draw: "Drawing", exchange: "Exchange", pitch: "Pitching", decide: "Decision",
    reveal: "Reveal", change_mind: "Change of mind", keep_decision: "Keep the decision",
    story_vote: "Story point vote", end_vote: "Early end vote", name_monarch: "Succession",
  },
};

const $ = (id) => document.getElementById(id);
let table = null; // {session, token, admin, game, version, events: EventSource, busy, clock, ...}
const GONE = "This session is gone (deleted, or expired after a long time without a move): "
  + "nothing more can be played here. The board and the events are as they last were.";
const UNKNOWN = "There is no such session: the link may be mistyped or cut short, or the "
  + "session was deleted or expired.";

// -- HTTP --------------------------------------------------------------------------------------
async function api(method, path, body, headers = {}) {
  // no-store: every answer is wanted as of now (a running clock's time left), never a cached
  // copy revalidated by ETag, which follows the clock's writes and takebacks but not time passing.
  const init = { method, headers: { ...headers }, cache: "no-store" };
  // The seat's token, unless the request names its own (the admin's, for the clock).
  if (table && table.token && !init.headers.Authorization) {
    init.headers.Authorization = `Bearer ${table.token}`;
  }
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const done = slowWatch();
  let response, data;
  try {
    response = await fetch(path, init);
    const type = response.headers.get("Content-Type") || "";
    data = type.includes("json") ? await response.json() : await response.text();
  } finally {
    done();
  }
  if (!response.ok) {
    // A problem+json answer: its fields (code, horizon, ...) travel with the error.
    const problem = new Error(data.detail || `${method} ${path}: ${response.status}`);
    if (typeof data === "object") Object.assign(problem, data);
    problem.status = response.status;
    throw problem;
  }
  return data;
}

// A request (or a stream's connection) with no answer after SLOW_SECONDS says so in
// #wait-status, until it ends. A browser opens at most six HTTP/1.1 connections to one host
// (Chromium, Firefox) and queues the rest without a word: with six live tables of this site open
// (each stream holds one; see "hidden tables" below) a click sent nothing and nothing was said.
// The page cannot tell a queued request from a slow server, so it names both.
const SLOW_SECONDS = 5;
let slowCount = 0; // requests and stream connections overdue now

function slowWatch() {
  let late = false;
  const timer = setTimeout(() => { late = true; slowChanged(1); }, SLOW_SECONDS * 1000);
  return () => { // the answer came (or the stream closed): idempotent
    clearTimeout(timer);
    if (late) { late = false; slowChanged(-1); }
  };
}

function slowChanged(by) {
  slowCount += by;
  $("wait-status").textContent = slowCount ? `Waiting for the server for over ${SLOW_SECONDS} s. `
    + "A browser opens only six connections to a site, and each table of it in view holds "
    + "one for its live updates: with several tables open in this browser, switch away from "
    + "or close a few of their tabs (a hidden table lets go of its connection), and this one "
    + "goes on by itself." : "";
}

// -- the lobby ---------------------------------------------------------------------------------
let games = [];

async function showLobby() {
  $("lobby").hidden = false;
  games = (await api("GET", "/v1/games")).games;
  $("game").replaceChildren(...games.map((g) => new Option(g.title, g.id)));
  $("game").onchange = pickGame;
  $("count").onchange = drawSeats;
  $("create").onsubmit = createSession;
  pickGame();
  const kept = keptLinks();
  if (kept) showLinks(kept);
}

function currentGame() {
  return games.find((g) => g.id === $("game").value);
}

function pickGame() {
  const game = currentGame();
  const counts = [];
  for (let n = game.min_players; n <= game.max_players; n++) counts.push(new Option(n, n));
  $("count").replaceChildren(...counts);
  drawSeats();
}

function drawSeats() {
  const game = currentGame();
  const names = ["ann", "bob", "cat", "dan", "eve", "fay"];
  const rows = [];
  for (let i = 0; i < Number($("count").value); i++) {
    const row = document.createElement("div");
    row.className = "seat";
    const name = Object.assign(document.createElement("input"), { value: names[i], required: true });
    name.setAttribute("aria-label", `Seat ${i + 1}: player id`);
    const kind = document.createElement("select");
    kind.setAttribute("aria-label", `Seat ${i + 1}: who plays`);
    kind.append(new Option("a person", ""), ...game.bot_levels.map((l) => new Option(`bot: ${l}`, l)));
    if (i > 0 && game.bot_levels.length) kind.value = game.bot_levels[0];
    row.append(name, kind);
    rows.push(row);
  }
  $("seats").replaceChildren($("seats").firstElementChild, ...rows);
}

async function createSession(event) {
  event.preventDefault();
  $("lobby-status").textContent = "";
  const rows = [...$("seats").querySelectorAll(".seat")].map((row) => row.children);
  const players = rows.map(([name]) => name.value);
  // Built as own properties (never `bots[name] = ...` on a `{}`: a seat named __proto__ would
  // set the object's prototype instead, and its bot would never be asked for).
  const bots = Object.fromEntries(rows.filter(([, kind]) => kind.value)
    .map(([name, kind]) => [name.value, kind.value]));
  try {
    const options = JSON.parse($("options").value || "{}");
    const request = { game: $("game").value, players, bots, options, ...clockRequest() };
    const created = await api("POST", "/v1/sessions", request);
    const links = {
      session_id: created.session_id, seats: created.seats, admin_token: created.admin_token,
    };
    keepLinks(links);
    showLinks(links);
    $("link-list").querySelector("a").focus();
  } catch (err) {
    $("lobby-status").textContent = `The session was not created: ${err.message}`;
  }
}

// Every link of a new session: one per seat, the spectator's, and the admin's. They open in a
// new tab, so following one's own seat link keeps the others here.
function showLinks({ session_id, seats, admin_token }) {
  const base = `${location.origin}/table#session=${encodeURIComponent(session_id)}`;
  const links = Object.entries(seats).map(([player, token]) =>
    [`Play as ${player}`, `${base}&token=${encodeURIComponent(token)}`]);
  links.push(["Watch (spectator)", base]);
  $("link-list").replaceChildren(...links.map(([text, href]) => {
    const item = document.createElement("li");
    const link = Object.assign(document.createElement("a"), {
      href, textContent: text, target: "_blank", rel: "noopener",
    });
    item.append(link);
    return item;
  }));
  $("admin-link").href = `${base}&admin=${encodeURIComponent(admin_token)}`;
  $("admin-token").textContent = admin_token;
  $("links").hidden = false;
}

// The last creation's links, kept for this tab (sessionStorage: gone with the tab), so a reload
// or Back from a table shows them again: the service never hands out a seat's token twice.
const KEPT_LINKS = "reign-referee-table-links";

function keepLinks(links) {
  try {
    sessionStorage.setItem(KEPT_LINKS, JSON.stringify(links));
  } catch { /* storage refused (private mode, quota): the links show until the page goes */ }
}

function keptLinks() {
  try {
    return JSON.parse(sessionStorage.getItem(KEPT_LINKS));
  } catch {
    return null;
  }
}

// The clock fields of a creation request (contract, "Clocks"); none without a time control.
function clockRequest() {
  const type = $("clock-type").value;
  if (!type) return {};
  const seconds = Number($("clock-seconds").value);
  const clock = type === "fischer"
    ? { type, initial_seconds: seconds, increment_seconds: Number($("clock-increment").value) }
    : { type, seconds };
  return { clock, on_timeout: { action: $("on-timeout").value } };
}

// -- the table ---------------------------------------------------------------------------------
function openTable(session, token, admin) {
  $("lobby").hidden = true;
  $("table").hidden = false;
  table = {
    session, token, admin, game: null, version: 0, busy: false, clock: null, entries: [],
    seen: 0, // the last version the stream brought (a reopened stream goes on after it)
    refusals: 0, // the stream's refusals in a row (they set the back-off)
    failures: 0, // the session's reads failed in a row (they set the back-off: readFailed)
    asleep: false, // its tab hidden a while, the stream closed (sleep, wake)
    closed: false, // the game over and its log whole: the stream is closed for good (gameOver)
    ended: false, // deleted, expired, or a link whose token opens nothing: nothing more here
    over: null, // the version that finished the game, once a read says so (gameOver)
    takeback: null, // the pending takeback this page knows of (takebackSettled)
    settled: new Set(), // takebacks known to be declined, accepted or stale
  };
  $("takeback").hidden = !token; // spectators neither propose nor answer takebacks
  $("takeback-form").onsubmit = proposeTakeback;
  $("clock-pause").onclick = () => setClock({ action: "pause" });
  $("clock-resume").onclick = () => setClock({ action: "resume" });
  $("clock-add").onsubmit = addTime;
  table.ticker = setInterval(showClock, 250); // the countdown; each answer re-syncs it
  openStream();
  refresh(); // #status says "Loading…" until it answers
  document.addEventListener("visibilitychange", visibilityChanged);
  visibilityChanged(); // opened in a background tab: it lets go too, once loaded
  // Back online (as the browser sees it): a read that failed meanwhile goes again now.
  window.addEventListener("online", () => { if (table.failures && !table.asleep) refresh(); });
}

// -- the live stream ---------------------------------------------------------------------------
// The whole game so far (after=0), then each move as it lands. EventSource sends no headers,
// so the seat token goes in the query. A stream that drops reconnects by itself with
// Last-Event-ID. One the server refuses (429 too_many_client_streams, 503 too_many_streams:
// README "Streams per client") the browser gives up on (`error`, readyState CLOSED): the page
// says so and opens it again later, after the last version it has seen, ever less often.
const RETRY_SECONDS = [5, 10, 20, 40, 60]; // a refusal's Retry-After is 5 s; then back off

function openStream() {
  const query = table.token ? `&token=${encodeURIComponent(table.token)}` : "";
  const path = `/v1/sessions/${table.session}/events`;
  const events = new EventSource(`${path}?after=${table.seen}${query}`);
  table.streamWait = slowWatch(); // a connection the browser holds back says so (slowWatch)
  events.addEventListener("open", () => {
    table.streamWait();
    streamOpened();
  });
  events.addEventListener("move", (message) => {
    const entry = JSON.parse(message.data);
    if (entry.version <= table.seen) return; // already in the log
    table.seen = entry.version;
    logEntry(entry);
    takebackSettled(entry);
    if (table.over !== null) gameOver(table.over); // the last entries have come
    else refresh();
  });
  events.addEventListener("takeback", (message) => { // proposed or declined: no new version
    takebackNews(JSON.parse(message.data));
    refresh();
  });
  // The admin paused, resumed or added time, or a grace was given: no new version either.
  // Read again: the countdown stops or starts from the server's figures (README "Turn clocks").
  events.addEventListener("clock", () => refresh());
  events.addEventListener("deleted", () => sessionGone(
    "This session was deleted: nothing more can be played here. The board and the events are "
    + "as they last were."));
  events.addEventListener("error", () => {
    table.streamWait();
    if (events.readyState === EventSource.CLOSED) streamRefused();
    else table.streamWait = slowWatch(); // the browser tries again by itself: watch that try
  });
  table.events = events;
}

function closeStream() {
  table.events.close();
  table.streamWait();
  clearTimeout(table.retry);
}

function streamOpened() {
  // Once back (after a refusal, a drop the browser mended, or a hidden tab's sleep), read the
  // session again: the stream replays moves, not a takeback proposed meanwhile.
  if (table.refusals || table.opened) refresh();
  table.opened = true;
  table.refusals = 0;
  $("live-status").textContent = "";
}

function streamRefused() {
  if (table.ended) return;
  const wait = RETRY_SECONDS[Math.min(table.refusals, RETRY_SECONDS.length - 1)];
  const seconds = wait * (1 + Math.random() / 5); // pages refused together come back apart
  table.refusals += 1;
  $("live-status").textContent = "Live updates stopped: the server turned the event stream "
    + `away (too many open). Trying again in ${Math.round(seconds)} s; what happened meanwhile `
    + "will show then.";
  table.retry = setTimeout(openStream, seconds * 1000);
  refresh(); // as of now; and a session that is gone (the refusal was a 404) says so
}

// A session deleted (its stream says `deleted`) or expired (a read answers 404
// unknown_session, or the stream says `deleted` at its next heartbeat): the page keeps its last
// board and log, offers no moves, stops its clocks.
function sessionGone(text) {
  endTable(text, "No more moves: the session is gone.");
}

// A read answered 401 or 403: the link's token opens no seat of this session (cut short when
// copied, another session's, or the admin's in the seat's place). Trying again cannot help, so
// the page stops (its stream's refusal was that too, not "too many open") and says why.
function badLink(err) {
  endTable(`This link's token is not valid for this session: ${err.message} Check that the link `
    + "was copied whole (or ask for it again), or open it without its token to watch.",
  "No moves: this link opens no seat.");
}

// Nothing more happens here: the stream and any retry of it stop, and so do the clocks.
function endTable(text, movesText) {
  if (table.ended) return;
  table.ended = true;
  closeStream();
  clearTimeout(table.reread);
  clearTimeout(table.sleeping);
  stopClock();
  $("status").textContent = text;
  $("status").className = "error";
  $("live-status").textContent = "";
  const none = document.createElement("p");
  none.textContent = movesText;
  $("move-groups").replaceChildren(none);
  $("takeback").hidden = true;
  $("clock-admin").hidden = true;
}

// A finished game changes no more (no move, no clock: README "Turn clocks"). Once the stream
// has brought its last version to the log, the page lets go of the stream and the countdown: an
// open stream holds one of the browser's few connections to this host (six in Chromium) for
// good, and a seventh tab would never load.
function gameOver(version) {
  table.over = version;
  if (table.seen < version) return; // its last entries are on their way: the stream stays
  table.closed = true;
  closeStream();
  clearInterval(table.ticker);
  $("live-status").textContent = "";
}

// Read the session, the board and (for a seat) its legal moves; draw them. A refresh asked for
// while one runs runs again after it, so the last answer drawn is the newest.
async function refresh() {
  if (table.ended) return;
  if (table.busy) { table.again = true; return; }
  table.busy = true;
  clearTimeout(table.reread); // this read is the one a failure had set for later: never two
  try {
    const path = `/v1/sessions/${table.session}`;
    // All three at once (a first paint waits on the slowest, not on their sum); a move landing
    // between them shows at the next event's refresh. Each one that answers is drawn even when
    // another fails: the legal moves carry their own version, so the seat can play them while
    // the snapshot is read again (before, one lost read threw them away too).
    const reads = await Promise.allSettled([
      api("GET", path),
      api("GET", `${path}/board.svg`),
      table.token
        ? api("GET", `${path}/legal-moves`).catch(movesRefused)
        : Promise.resolve({ moves: [] }),
    ]);
    if (table.ended) return; // deleted while these were read
    const failed = reads.filter((read) => read.status === "rejected").map((read) => read.reason);
    const final = failed.find(endsTable);
    if (final) throw final;
    drawRead(...reads.map((read) => read.value)); // undefined: that read failed
    if (failed.length) throw failed[0];
    table.failures = 0;
  } catch (err) {
    if (err.code === "unknown_session") sessionGone(table.game ? GONE : UNKNOWN); // read before?
    else if (endsTable(err)) badLink(err);
    else readFailed(err);
  } finally {
    table.busy = false;
    if (table.again) { table.again = false; refresh(); }
  }
}

// A read that no retry can mend: the session is gone, or the link's token opens no seat of it.
function endsTable(err) {
  return err.code === "unknown_session" || err.status === 401 || err.status === 403;
}

// What a refresh read: the snapshot, the board picture, the legal moves (a spectator's: none);
// any of them undefined when its read failed, and its part of the page then stays as it was.
function drawRead(snapshot, board, legal) {
  if (board !== undefined) showBoard(board);
  if (snapshot !== undefined) {
    table.game = snapshot.game;
    showStatus(snapshot);
    if (legal && legal.refused) $("status").textContent += ` ${legal.refused}`;
    syncClock(snapshot.clock);
    showClockAdmin(snapshot);
    showTakeback(snapshot);
  }
  if (legal !== undefined) { // the version the moves were read at: their If-Match (play)
    table.version = legal.version ?? (snapshot ? snapshot.version : table.version);
    showMoves(snapshot && snapshot.status === "finished" ? [] : legal.moves);
  }
  if (snapshot && snapshot.status === "finished") gameOver(snapshot.version);
}

// A read that failed otherwise (the network dropped it, the server or its store did not answer)
// is read again later, sooner at first than a refused stream (RETRY_SECONDS), since a blip is
// the likely cause: nothing else would read it again, as the game may now wait on this very
// seat (no event is coming) while its clock runs. The page says so in #status, which the next
// read that succeeds redraws; ever less often while it fails, a fifth more at random so pages
// that failed together come back apart. One timer: a read asked for meanwhile (an event, a
// move) takes its place. A tab asleep reads again when shown (wake), not before.
const READ_RETRY_SECONDS = [1, 2, 4, 8, 15, 30];

function readFailed(err) {
  if (table.ended) return;
  const wait = READ_RETRY_SECONDS[Math.min(table.failures, READ_RETRY_SECONDS.length - 1)];
  const seconds = wait * (1 + Math.random() / 5);
  table.failures += 1;
  const why = /[.!?]$/.test(err.message) ? err.message : `${err.message}.`;
  $("status").textContent = `Could not read the session: ${why} Trying again in `
    + `${Math.round(seconds)} s; until then the board and moves shown may be out of date.`;
  $("status").className = "error";
  clearTimeout(table.reread);
  if (!table.asleep) table.reread = setTimeout(refresh, seconds * 1000);
}

// -- hidden tables -----------------------------------------------------------------------------
// Each open table holds one of the browser's connections to this host for its stream, and a
// browser opens at most six (HTTP/1.1: Chromium, Firefox): six tables in one browser, such as a
// four-seat game's links plus the spectator's and the admin's opened by one person for a
// hot-seat game, left no connection for any read or move, and every tab froze with nothing
// said. A table nobody can see needs no live updates: HIDDEN_SECONDS after its tab is hidden
// (`document.visibilityState`: another tab in front, the window minimised) it closes its stream,
// and once shown again it opens a new one after the last version it logged (the stream replays
// what was missed) and, once that is open, reads the session again (streamOpened), as after a
// refusal. So only the tables in view hold connections, and one in view that still gets none
// says so (slowWatch). The grace spares a quick look at another tab a reconnection; a page
// that never hides (a monitor on the wall) keeps its stream.
const HIDDEN_SECONDS = 2;

function visibilityChanged() {
  clearTimeout(table.sleeping);
  if (table.ended) return;
  if (document.visibilityState === "hidden") {
    table.sleeping = setTimeout(sleep, HIDDEN_SECONDS * 1000);
  } else if (table.asleep) wake();
}

function sleep() {
  if (table.ended || table.closed || table.asleep) return;
  table.asleep = true;
  closeStream(); // any retry of a refused stream too
  clearTimeout(table.reread);
  $("live-status").textContent = "Live updates paused while this tab was hidden: they come "
    + "back, with what happened meanwhile, as soon as the page reconnects.";
}

function wake() {
  table.asleep = false;
  if (table.ended || table.closed) return;
  table.opened = true; // its open reads the session again, even if it had never opened before
  openStream();
}

// A session begun under another version of its game's rules is read as stored but not played
// here (README "Rules versions"): no moves, and the service's reason, instead of no page at all.
function movesRefused(err) {
  if (err.code === "rules_version_changed") return { moves: [], refused: err.message };
  throw err;
}

function showBoard(svgText) {
  // The SVG comes from this server, drawn from this seat's view and escaped there; parsed as
  // an SVG document (never as HTML), so it can only be a picture.
  const svg = new DOMParser().parseFromString(svgText, "image/svg+xml").documentElement;
  $("board").replaceChildren(document.importNode(svg, true));
}

function showStatus(snapshot) {
  const view = snapshot.view;
  table.seat = snapshot.seat;
  const seat = snapshot.seat ? `you are ${snapshot.seat}` : "you are watching";
  $("table-title").textContent = `${snapshot.game} (${seat})`;
  let text;
  if (view.status === "finished") {
    const winners = (view.outcome && view.outcome.winners) || [];
    text = `The game is over. Winner${winners.length === 1 ? "" : "s"}: ${winners.join(", ") || "none"}.`;
  } else {
    text = `Version ${snapshot.version}. Waiting for: ${snapshot.to_move.join(", ")}.`; // to_move: who may act now
  }
  $("status").textContent = text;
  $("status").className = "";
}

// The seat's legal moves, grouped by type: one <details> per type, one button per move.
function showMoves(moves) {
  // Keyboard play: focus stays in the moves panel across refreshes (the buttons are redrawn).
  const hadFocus = table.keepFocus || $("moves").contains(document.activeElement);
  const names = MOVE_NAMES[table.game] || {};
  const groups = new Map();
  for (const move of moves) {
    if (!groups.has(move.type)) groups.set(move.type, []);
    groups.get(move.type).push(move);
  }
  const blocks = [...groups].map(([type, list]) => {
    const block = document.createElement("details");
    block.open = groups.size <= 4;
    const summary = document.createElement("summary");
    summary.textContent = `${names[type] || type} (${list.length})`;
    const choices = document.createElement("div");
    choices.className = "choices";
    choices.append(...list.map((move) => {
      const button = Object.assign(document.createElement("button"), { type: "button" });
      button.textContent = describe(move) || names[type] || type;
      button.dataset.type = type;
      button.onclick = () => play(move);
      return button;
    }));
    block.append(summary, choices);
    return block;
  });
  if (!blocks.length) {
    const idle = document.createElement("p");
    idle.textContent = table.token ? "Nothing to do now." : "Spectators do not move.";
    blocks.push(idle);
  }
  $("move-groups").replaceChildren(...blocks);
  table.keepFocus = false;
  if (hadFocus) {
    const first = document.querySelector("#move-groups details[open] button")
      || document.querySelector("#move-groups summary") || $("moves-title");
    first.focus();
  }
}

// "card hexen-4, target bob-2": a move's parameters, in the words of the API.
function describe(move) {
  return Object.entries(move)
    .filter(([key]) => key !== "player" && key !== "type")
    .map(([key, value]) => `${key} ${Array.isArray(value) ? value.join(" ") : value}`)
    .join(", ");
}

// Why a move was refused goes to #move-error (an alert of its own), which the refresh that
// follows leaves alone (it redraws #status): it stays until the next move is tried.
async function play(move) {
  table.keepFocus = $("moves").contains(document.activeElement);
  for (const button of document.querySelectorAll("#move-groups button")) button.disabled = true;
  $("move-error").textContent = "";
  try {
    await api("POST", `/v1/sessions/${table.session}/moves`, { move }, {
      "If-Match": `"${table.version}"`, // refused (412) if the session moved meanwhile
      "Idempotency-Key": newKey(), // a retried request lands once
    });
  } catch (err) {
    $("move-error").textContent = err.status === 412
      ? "Your move was not made: the game moved on before it arrived. Here it is now."
      : `Your move: ${err.message}`; // a 503 outcome_unknown may have landed: its words say so
    $("move-error").className = err.status === 412 ? "" : "error";
  }
  refresh();
}

function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16)); // also outside https (randomUUID is not)
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function logEntry(entry) {
  const item = document.createElement("li");
  item.value = entry.version; // the list is numbered by version
  const events = entry.events.map((e) => e.type.replaceAll("_", " ")).join(", ");
  let text = `${entry.player}: ${entry.move.type}${events ? ` (${events})` : ""}`;
  if (entry.by === "clock") { // a timeout: the clock moved for the seat (forfeit, pause or bot)
    text = `${entry.player} ran out of time: ${entry.move.type}${events ? ` (${events})` : ""}`;
    $("clock-note").textContent = text;
  } else if (entry.by === "takeback") {
    const back = entry.takeback;
    text = `Takeback to version ${back.to_version}, proposed by ${entry.player}, `
      + `accepted by ${back.accepted_by.join(", ")}`;
  }
  table.entries.push(entry);
  item.textContent = text;
  item.className = entry.by || "";
  $("log").append(item);
  item.scrollIntoView({ block: "nearest" });
}

// -- clocks ------------------------------------------------------------------------------------
// An answer's `clock` holds each seat's time left as of that answer. The page counts the running
// seats down from the moment the answer arrived, on its own clock (never the server's
// `deadlines`: a computer's clock may be off), and takes the server's figures again on every
// answer, so it never drifts far. The server decides timeouts; the page only shows them.
function syncClock(clock) {
  table.clock = clock && { ...clock, received: performance.now() };
  $("clock").hidden = !clock;
  showClock();
}

// The session is gone: each seat's time stays as it was shown last, counting no further.
function stopClock() {
  clearInterval(table.ticker);
  const clock = table.clock;
  if (!clock) return;
  const spent = performance.now() - clock.received;
  const left = Object.entries(clock.remaining_ms).map(([player, ms]) =>
    [player, !clock.paused && clock.running.includes(player) ? ms - spent : ms]);
  table.clock = { ...clock, remaining_ms: Object.fromEntries(left), running: [] };
  showClock();
  $("clock-title").textContent = "Clocks (stopped)";
}

function showClock() {
  const clock = table && table.clock;
  if (!clock) return;
  const spent = performance.now() - clock.received;
  const rows = Object.entries(clock.remaining_ms).map(([player, ms]) => {
    const running = !clock.paused && clock.running.includes(player);
    const item = document.createElement("li");
    item.dataset.player = player;
    item.className = running ? "running" : "";
    item.textContent = `${player}: ${clockText(running ? ms - spent : ms)}${running ? " (to move)" : ""}`;
    return item;
  });
  $("clock-list").replaceChildren(...rows);
  $("clock-title").textContent = clock.paused ? "Clocks (paused)" : "Clocks";
}

// The admin's controls (only with the admin token in the link): pause or resume, and add time
// to a seat; none once the game is over (its clock stopped with it: 409 game_finished).
function showClockAdmin(snapshot) {
  const clock = snapshot.clock;
  $("clock-admin").hidden = !table.admin || !clock || snapshot.status === "finished";
  if ($("clock-admin").hidden) return;
  $("clock-pause").hidden = clock.paused;
  $("clock-resume").hidden = !clock.paused;
  const select = $("clock-add-player");
  const players = Object.keys(clock.remaining_ms);
  if (select.options.length !== players.length) {
    select.replaceChildren(...players.map((player) => new Option(player, player)));
  }
}

function addTime(event) {
  event.preventDefault();
  const seconds = Number($("clock-add-seconds").value);
  setClock({ action: "add_time", player: $("clock-add-player").value, seconds });
}

// POST /v1/sessions/{id}/clock with the admin token (README "Turn clocks"). Its answer holds the
// new clock; the stream's `event: clock` then brings it to every other page of the session.
async function setClock(change) {
  const words = { pause: "Clocks paused.", resume: "Clocks running again." };
  try {
    const answer = await api("POST", `/v1/sessions/${table.session}/clock`, change, {
      Authorization: `Bearer ${table.admin}`,
    });
    syncClock(answer.clock);
    $("clock-admin-status").textContent = words[change.action]
      || `${change.seconds} s added for ${change.player}.`;
  } catch (err) {
    $("clock-admin-status").textContent = `The clock did not change: ${err.message}`;
  }
  refresh();
}

// 83000 -> "1:23"; 5025000 -> "1:23:45"; days -> "2 d 03:04:05".
function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const [d, h, m, s] = [total / 86400, (total / 3600) % 24, (total / 60) % 60, total % 60].map(Math.floor);
  const two = (n) => String(n).padStart(2, "0");
  if (d) return `${d} d ${two(h)}:${two(m)}:${two(s)}`;
  return h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

// -- takebacks ---------------------------------------------------------------------------------
// A seat proposes going back to an earlier version; the seats whose moves it undoes accept or
// decline (contract, "Records"). The service refuses a version past the information horizon
// (409, with `horizon`: the earliest allowed), and the form then offers that one.
function showTakeback(snapshot) {
  const target = $("takeback-to");
  target.max = Math.max(0, snapshot.version - 1);
  if (document.activeElement !== target) {
    // By default, back to just before this seat's last move of its own.
    const own = table.entries.findLast((e) => e.player === table.seat && !e.by);
    target.value = Math.max(Number(target.min) || 0, own ? own.version - 1 : snapshot.version - 1, 0);
  }
  $("takeback-form").hidden = snapshot.version === 0 || snapshot.status === "finished";
  const offer = snapshot.takeback; // the pending proposal, if any
  // Known from now on, unless the stream has already brought a later version than this answer.
  if (offer && snapshot.version >= table.seen && !table.settled.has(offer.takeback_id)) {
    table.takeback = {
      ...offer, at_version: snapshot.version, mine: offer.proposed_by === table.seat,
    };
  }
  const mine = offer && offer.waiting_on.includes(table.seat);
  $("takeback-offer").hidden = !mine;
  if (mine) {
    $("takeback-question").textContent =
      `${offer.proposed_by} proposes going back to version ${offer.to_version}.`;
    $("takeback-accept").onclick = () => answerTakeback(offer.takeback_id, "accept");
    $("takeback-decline").onclick = () => answerTakeback(offer.takeback_id, "decline");
  }
}

async function proposeTakeback(event) {
  event.preventDefault();
  const to_version = Number($("takeback-to").value);
  try {
    const answer = await api("POST", `/v1/sessions/${table.session}/takebacks`, { to_version });
    if (table.settled.has(answer.takeback_id)) return; // already answered, as the stream said
    if (answer.status === "pending") {
      const { takeback_id, version } = answer;
      table.takeback = { takeback_id, to_version, at_version: version, mine: true };
    }
    takebackStatus(answer.status === "accepted"
      ? `Taken back to version ${to_version}.`
      : `Proposed: going back to version ${to_version} waits on ${answer.waiting_on.join(", ")}.`);
  } catch (err) {
    if (err.code === "past_information_horizon") {
      $("takeback-to").min = err.horizon;
      $("takeback-to").value = err.horizon;
      takebackStatus(err.horizon < table.version
        ? `Not that far: the earliest version you may go back to now is ${err.horizon}.`
        : "Nothing can be taken back now: everything since was seen or decided by chance.");
    } else takebackStatus(err.message);
  }
}

async function answerTakeback(id, answer) {
  try {
    const reply = await api("POST", `/v1/sessions/${table.session}/takebacks/${id}`, { answer });
    const text = answerText(answer, reply);
    if (reply.status === "pending") takebackStatus(text);
    else settle(id, text); // declined or accepted: what the stream says next changes nothing
  } catch (err) {
    takebackStatus(err.message);
  }
  table.keepFocus = true; // the offer goes away: keyboard focus returns to the moves
  refresh();
}

// What the service made of this seat's answer, in its words (`status`, `waiting_on`): a seat's
// first answer stands (README "Records"), so a Decline pressed after the seat accepted in
// another tab changes nothing, and the page must not say it declined.
function answerText(answer, reply) {
  if (reply.status === "declined") {
    return answer === "decline" ? "You declined the takeback; the game goes on."
      : "The takeback was declined by another seat; the game goes on.";
  }
  const said = answer === "decline"
    ? "Your seat had already accepted this takeback, and a seat's first answer stands: "
    : "You accepted the takeback: ";
  return reply.status === "accepted"
    ? `${said}the game went back to version ${reply.to_version}.`
    : `${said}it still waits on ${reply.waiting_on.join(", ")}.`;
}

// What became of the pending takeback this page knows of (proposed here, or read from the
// session): the stream's `event: takeback` says `declined`; a new version is its acceptance
// when it is the takeback's own entry (`by: "takeback"`), and otherwise makes it stale (the
// service answers 409 takeback_stale from then on). README "Records", docs/records.md.
function takebackNews(news) {
  const known = table.takeback;
  if (news.status !== "declined" || !known || known.takeback_id !== news.takeback_id) return;
  const whose = known.mine ? "Your" : "The";
  settle(known.takeback_id,
    `${whose} takeback to version ${known.to_version} was declined; the game goes on.`);
}

function takebackSettled(entry) {
  const known = table.takeback;
  if (!known || entry.version <= known.at_version) return;
  const accepted = entry.by === "takeback" && entry.takeback.takeback_id === known.takeback_id;
  settle(known.takeback_id, accepted
    ? `${known.mine ? "Your" : "The"} takeback was accepted: back to version ${known.to_version}.`
    : `The takeback to version ${known.to_version} no longer applies: the game moved on `
      + `(version ${entry.version}). Propose it again if you still want it.`);
}

function settle(id, text) {
  if (table.takeback && table.takeback.takeback_id === id) table.takeback = null;
  table.settled.add(id);
  takebackStatus(text);
}

function takebackStatus(text) {
  $("takeback-status").textContent = text;
}

// -- start -------------------------------------------------------------------------------------
const fragment = new URLSearchParams(location.hash.slice(1));
if (fragment.get("session")) {
  openTable(fragment.get("session"), fragment.get("token"), fragment.get("admin"));
} else showLobby();
window.addEventListener("hashchange", () => location.reload());
