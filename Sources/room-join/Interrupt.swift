import Dispatch
import Foundation

extension Steps {
    /// From now on SIGINT no longer kills the process: it yields ``Step/interrupted``, so the run loop can leave the
    /// room first. Keep the returned source for as long as that should hold.
    func catchInterrupt() -> any DispatchSourceSignal {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT)
        source.setEventHandler { [self] in yield(.interrupted) }
        source.resume()
        return source
    }
}
