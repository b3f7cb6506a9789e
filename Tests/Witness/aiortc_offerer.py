"""Independent witness (docs/testing.md#witnesses): aiortc makes an offer, then applies our answer.

Protocol on stdio: prints the offer SDP followed by a line "END-OFFER"; reads the answer SDP from stdin until
EOF; prints "accepted" and exits 0 when aiortc's setRemoteDescription succeeds, else prints the error and
exits 1. Argument: "audio", "video" and/or "data" (what to offer).
"""
import asyncio
import sys

from aiortc import RTCPeerConnection, RTCSessionDescription


async def main(kinds):
    pc = RTCPeerConnection()
    try:
        for kind in ("audio", "video"):
            if kind in kinds:
                pc.addTransceiver(kind, direction="sendrecv")
        if "data" in kinds:
            pc.createDataChannel("chat")
        await pc.setLocalDescription(await pc.createOffer())
        sys.stdout.write(pc.localDescription.sdp)
        sys.stdout.write("END-OFFER\n")
        sys.stdout.flush()
        answer = sys.stdin.read()
        try:
            await pc.setRemoteDescription(RTCSessionDescription(sdp=answer, type="answer"))
        except Exception as error:  # aiortc raises ValueError / InvalidStateError
            print(f"rejected: {type(error).__name__}: {error}")
            return 1
        print("accepted", pc.signalingState)
        return 0
    finally:
        await pc.close()


sys.exit(asyncio.run(main(sys.argv[1:])))
