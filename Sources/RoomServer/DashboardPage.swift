/// The operators' dashboard (docs/operations.md#dashboard): one static page, inline CSS and JavaScript, no framework,
/// served on `GET /dashboard` to a browser logged in with the admin token (``DashboardLoginPage``).
///
/// The page opens `ws(s)://<host>/admin`, which the session cookie of the login opens (the token is never in the
/// page or its URL), calls `subscribeRooms` and renders each snapshot (the answer, then every `roomsChanged`) as one table per room,
/// captioned with the room's name and its media server: participants, their streams and subscriptions each with
/// whether its audio and video flow (a stuck one, published or subscribed but not flowing, marked in red and
/// counted in the totals), connection, outbox depth and round-trip time. It shows the
/// connection's state and the time of the last snapshot, and reconnects with backoff (0.5 s doubling to 10 s) when
/// the socket drops. Names are set as text, never as markup. A "Log out" button ends the session.
enum DashboardPage {
    /// The page, as served.
    static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Rooms · room-server</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; line-height: 1.4; }
  body { margin: 1.5rem 2rem; }
  header { display: flex; flex-wrap: wrap; gap: 0.5rem 2rem; align-items: baseline; border-bottom: 1px solid #8886;
           padding-bottom: 0.75rem; margin-bottom: 1rem; }
  h1 { font-size: 1.4rem; margin: 0; }
  header p { margin: 0; }
  #state::before { content: "\25CF\00A0"; color: #9a6700; }
  #state[data-state="live"]::before { color: #1a7f37; }
  #state[data-state="down"]::before, #state[data-state="off"]::before { color: #cf222e; }
  #notice { padding: 0.5rem 0.75rem; border-left: 4px solid #cf222e; background: #cf222e14; }
  table { border-collapse: collapse; margin: 0 0 1.75rem; min-width: 44rem; }
  caption { text-align: left; font-size: 1.1rem; font-weight: 600; padding: 0 0 0.4rem; }
  th, td { text-align: left; padding: 0.3rem 0.9rem 0.3rem 0; border-bottom: 1px solid #8884; vertical-align: top; }
  thead th { font-size: 0.85rem; text-transform: uppercase; letter-spacing: 0.03em; color: #666; }
  td.number { text-align: right; font-variant-numeric: tabular-nums; }
  .muted { color: #888; }
  caption .media-server { font-size: 0.85rem; font-weight: normal; color: #666; margin-left: 1rem; }
  .endpoint { display: block; white-space: nowrap; padding-left: 0.4rem; border-left: 3px solid #8886; }
  .endpoint + .endpoint { margin-top: 0.2rem; }
  .endpoint .kinds { display: block; font-size: 0.8rem; color: #666; }
  .endpoint[data-flow="flowing"] { border-left-color: #1a7f37; }
  .endpoint[data-flow="partial"] { border-left-color: #9a6700; }
  .endpoint[data-flow="partial"] .kinds { color: #9a6700; }
  .endpoint[data-flow="stuck"] { border-left-color: #cf222e; color: #cf222e; font-weight: 600; }
  .endpoint[data-flow="stuck"] .kinds { color: #cf222e; }
  tr[data-stuck] { background: #cf222e14; }
  #stuck { color: #cf222e; font-weight: 600; }
  header form { margin-left: auto; }
</style>
</head>
<body>
<header>
  <h1>Rooms</h1>
  <p>Connection: <strong id="state" data-state="connecting" role="status" aria-live="polite">connecting</strong></p>
  <p>Last update: <time id="updated">never</time></p>
  <p id="totals"></p>
  <p id="stuck" role="status" hidden></p>
  <form method="post" action="/dashboard/logout"><button type="submit">Log out</button></form>
</header>
<p id="notice" role="alert" hidden></p>
<main id="rooms"></main>
<script>
"use strict";
(function () {
  const stateElement = document.getElementById("state");
  const updatedElement = document.getElementById("updated");
  const totalsElement = document.getElementById("totals");
  const stuckElement = document.getElementById("stuck");
  const noticeElement = document.getElementById("notice");
  const roomsElement = document.getElementById("rooms");
  let version = -1, delay = 500, requestId = 0;

  function setState(text, state) {
    stateElement.textContent = text;
    stateElement.dataset.state = state;
  }

  function notice(text) {
    noticeElement.textContent = text;
    noticeElement.hidden = !text;
  }

  function element(name, text, className) {
    const node = document.createElement(name);
    if (text !== undefined) node.textContent = text;
    if (className) node.className = className;
    return node;
  }

  function plural(count, word) {
    return count + " " + word + (count === 1 ? "" : "s");
  }

  function cell(row, text, className) {
    const td = element("td", text, className);
    row.appendChild(td);
    return td;
  }

  // What one flow entry ({audio, video}: true, false or null) says: "flowing" (every kind known flows), "partial"
  // (one flows, another does not), "stuck" (none flows, and one does not or a media server should report it), or
  // "unknown" (nothing reported, and nothing expected: a simulated backend, a remote participant).
  function flowState(flow, expected) {
    const kinds = [flow.audio, flow.video];
    if (kinds.includes(true)) return kinds.includes(false) ? "partial" : "flowing";
    return kinds.includes(false) || expected ? "stuck" : "unknown";
  }

  function kindText(name, flowing) {
    return name + " " + (flowing === true ? "flowing" : flowing === false ? "not flowing" : "unknown");
  }

  // One cell listing endpoints (a participant's streams, or the publishers it receives from), each with its flow;
  // returns how many are stuck.
  function endpointCell(row, names, flows, expected) {
    const td = cell(row, names.length ? undefined : "—", names.length ? "" : "muted");
    let stuck = 0;
    for (const name of names) {
      const flow = (flows || {})[name] || {};
      const state = flowState(flow, expected);
      if (state === "stuck") stuck += 1;
      const item = element("span", undefined, "endpoint");
      item.dataset.endpoint = name;
      item.dataset.flow = state;
      item.title = state === "stuck" ? "published or subscribed, but no media flows" : state;
      item.appendChild(document.createTextNode((state === "stuck" ? "\u26A0 " : "") + name));
      item.appendChild(element("span", [kindText("audio", flow.audio), kindText("video", flow.video)].join(" · "),
                               "kinds"));
      td.appendChild(item);
    }
    return stuck;
  }

  function render(snapshot) {
    if (!snapshot || typeof snapshot.version !== "number" || !Array.isArray(snapshot.rooms)) return;
    if (snapshot.version < version) return;  // an older snapshot that arrived late
    version = snapshot.version;
    const clustered = snapshot.node !== null && snapshot.node !== undefined;
    const tables = [];
    let stuck = 0;
    for (const room of snapshot.rooms) {
      const table = element("table");
      table.dataset.room = room.name;
      const mediaServer = room.mediaServer === undefined ? null : room.mediaServer;
      const caption = element("caption");
      caption.appendChild(element("span", room.name, "room-name"));
      caption.appendChild(element("span", "media server: " + (mediaServer === null ? "none" : mediaServer),
                                  "media-server"));
      table.appendChild(caption);
      const head = element("thead"), headRow = element("tr");
      const columns = ["Participant"].concat(clustered ? ["Node"] : [],
        ["Publishes", "Receives from", "Connected", "Outbox", "RTT (ms)"]);
      for (const title of columns) {
        const th = element("th", title);
        th.scope = "col";
        headRow.appendChild(th);
      }
      head.appendChild(headRow);
      table.appendChild(head);
      const body = element("tbody");
      for (const participant of room.participants) {
        const row = element("tr");
        row.dataset.participant = participant.name;
        const name = element("th", participant.name);
        name.scope = "row";
        row.appendChild(name);
        if (clustered) cell(row, participant.node + (participant.remote ? " (remote)" : ""));
        // A media server reports the flow of this node's endpoints: there, an endpoint without flow is stuck.
        const expected = mediaServer !== null && !participant.remote;
        const rowStuck = endpointCell(row, participant.streams, participant.streamFlows, expected)
          + endpointCell(row, participant.subscriptions, participant.subscriptionFlows, expected);
        if (rowStuck > 0) row.dataset.stuck = String(rowStuck);
        stuck += rowStuck;
        cell(row, participant.connected === null ? "—" : (participant.connected ? "yes" : "reconnecting"));
        cell(row, participant.outboxDepth === null ? "—" : String(participant.outboxDepth), "number");
        cell(row, participant.rttMilliseconds === null ? "—" : participant.rttMilliseconds.toFixed(2), "number");
        body.appendChild(row);
      }
      table.appendChild(body);
      tables.push(table);
    }
    if (tables.length === 0) tables.push(element("p", "No rooms.", "muted"));
    roomsElement.replaceChildren(...tables);
    const totals = snapshot.totals;
    totalsElement.textContent = [plural(totals.rooms, "room"), plural(totals.participants, "participant"),
      plural(totals.streams, "stream"), plural(totals.subscriptions, "subscription")].join(" · ");
    stuckElement.textContent = stuck ? "\u26A0 " + stuck + " stuck (published or subscribed, no media flowing)" : "";
    stuckElement.hidden = stuck === 0;
    updatedElement.dateTime = snapshot.generatedAt;
    updatedElement.textContent = new Date(snapshot.generatedAt).toLocaleTimeString();
  }

  function connect() {
    setState("connecting", "connecting");
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(scheme + "//" + location.host + "/admin");
    socket.onopen = function () {
      delay = 500;
      version = -1;  // a restarted server counts from 0 again
      setState("live", "live");
      notice("");
      socket.send(JSON.stringify({ jsonrpc: "2.0", id: ++requestId, method: "subscribeRooms" }));
    };
    socket.onmessage = function (event) {
      let message;
      try { message = JSON.parse(event.data); } catch (error) { return; }
      if (message.method === "roomsChanged") render(message.params);
      else if (message.result) render(message.result);
      else if (message.error) notice("subscribeRooms failed: " + message.error.message);
    };
    socket.onclose = function (event) {
      const wait = delay;
      delay = Math.min(delay * 2, 10000);
      const why = event.code === 1006 ? "connection lost or refused (has the session ended? reload to log in)"
        : "closed (" + event.code + ")";
      setState("reconnecting in " + (wait / 1000) + " s: " + why, "down");
      setTimeout(connect, wait);
    };
  }

  connect();
})();
</script>
</body>
</html>
"""#
}
