#!/usr/bin/env python3
"""Headless Chromium's RTCPeerConnection as an independent witness of our descriptions (docs/testing.md#witnesses):
PeerManager's (ChromiumRenegotiationTests) and those a RoomServer answers through Kurento Media Server
(KurentoRoomWitnessTests). The Swift side is TestSupport's ChromiumPeer.

Usage: chromium_peer.py CHROMIUM PROFILE_DIR

Starts CHROMIUM headless (the shared driver, Tests/Witness/chromium_cdp.py), puts one RTCPeerConnection without ICE
servers into an about:blank page and runs its steps through Runtime.evaluate (awaitPromise). The Swift test speaks to
it line by line over stdio:

  (start)                  -> "ready" once the page holds its RTCPeerConnection, or "fail <why>"
  step <name> <json args>  -> runs the page's step `name` with the arguments (a JSON array of strings), then
                              "step <json>": {"error": null or the browser's exception as "<name>: <message>",
                              "value": the SDP the step made or null, "state": the connection as the page sees it}
  quit                     -> closes the browser and exits 0
  anything else            -> "fail <why>"

Steps: addRecvonly(kind…), addSendonly(kind…) (a live track of each kind, all in one MediaStream: video from a
canvas, audio from WebAudio; no camera or microphone), createOffer(), restartIce() (restartIce, then createOffer),
createAnswer() (each of these three also setLocalDescription; the value is the SDP that createOffer or createAnswer
returned), setRemote(type, sdp), setDirection(mid, direction), state().

The state: signalingState, the transceivers (mid, kind, direction, currentDirection), every track event the page
received in order (kind, the receiver's track id, mid, the ids of `RTCTrackEvent.streams`) and every stream those
events carried with the ids of the tracks it holds now.

Every wait has a deadline (KS_DEADLINE_SCALE multiplies them); no fixed sleeps.
"""
import json
import sys

# The shared CDP driver, beside this script (Python puts the script's folder first on sys.path); no bytecode cache in
# the source tree.
sys.dont_write_bytecode = True
from chromium_cdp import commands, run, say  # noqa: E402

PAGE = r"""
window.witness = (() => {
  const pc = new RTCPeerConnection({iceServers: []});
  const events = [];
  const streams = new Map();
  pc.ontrack = event => {
    for (const stream of event.streams) streams.set(stream.id, stream);
    events.push({kind: event.track.kind, track: event.track.id, mid: event.transceiver.mid,
                 streams: event.streams.map(stream => stream.id)});
  };
  const state = () => ({
    signalingState: pc.signalingState,
    transceivers: pc.getTransceivers().map(t => ({
      mid: t.mid, kind: t.receiver.track.kind, direction: t.direction, currentDirection: t.currentDirection})),
    events: events.slice(),
    streams: Array.from(streams.values()).map(stream => ({
      id: stream.id, tracks: stream.getTracks().map(track => track.id)})),
  });
  const describe = async made => { await pc.setLocalDescription(made); return made.sdp; };
  const steps = {
    addRecvonly: async (...kinds) => { for (const kind of kinds) pc.addTransceiver(kind, {direction: "recvonly"}); },
    addSendonly: async (...kinds) => {
      const stream = new MediaStream();
      for (const kind of kinds) {
        const track = kind === "video"
          ? document.createElement("canvas").captureStream().getVideoTracks()[0]
          : new AudioContext().createMediaStreamDestination().stream.getAudioTracks()[0];
        stream.addTrack(track);
        pc.addTransceiver(track, {direction: "sendonly", streams: [stream]});
      }
    },
    createOffer: async () => describe(await pc.createOffer()),
    restartIce: async () => { pc.restartIce(); return describe(await pc.createOffer()); },
    createAnswer: async () => describe(await pc.createAnswer()),
    setRemote: async (type, sdp) => { await pc.setRemoteDescription({type, sdp}); },
    setDirection: async (mid, direction) => {
      const transceiver = pc.getTransceivers().find(t => t.mid === mid);
      if (!transceiver) throw new Error(`no transceiver has mid ${mid}`);
      transceiver.direction = direction;
    },
    state: async () => null,
  };
  return {
    run: async (name, args) => {
      try {
        if (!steps[name]) throw new Error(`no step ${name}`);
        const value = await steps[name](...args);
        return JSON.stringify({error: null, value: value === undefined ? null : value, state: state()});
      } catch (error) {
        return JSON.stringify({error: `${error.name}: ${error.message}`, value: null, state: state()});
      }
    },
  };
})();
"ready"
"""


async def session(tools):
    ready = await tools.evaluate(PAGE)
    say(ready if ready == "ready" else f"fail the page said {ready!r}")
    if ready != "ready":
        return 1
    async for command, argument in commands():
        if command == "step":
            name, _, arguments = argument.partition(" ")
            expression = f"window.witness.run({json.dumps(name)}, {json.dumps(json.loads(arguments or '[]'))})"
            say("step " + await tools.evaluate(expression, await_promise=True))
        elif command == "quit":
            return 0
        else:
            say("fail unknown command " + command)
    return 0


def main():
    chromium, profile = sys.argv[1:3]
    return run(chromium, profile, session)


if __name__ == "__main__":
    sys.exit(main())
