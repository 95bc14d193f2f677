import CProj
import Foundation
import GeoFareCore

/// The PROJ state of one thread: its own context, resolved CRSs and built transformers.
///
/// PROJ objects must never be used from two threads at once, and building a transformer costs
/// milliseconds, so each thread keeps its own context and caches what it built on it. The state
/// is found through a pthread key and freed when its thread exits.
final class ProjThreadState {
    /// This thread's PROJ context; every object below was made on it.
    let context = ProjContext()
    private var crsByName: [String: CRS] = [:]
    private var transformers: [TransformerKey: ProjTransformer] = [:]

    struct TransformerKey: Hashable {
        let source: String
        let target: String
    }

    /// The state of the calling thread, created on first use.
    static var current: ProjThreadState {
        if let existing = pthread_getspecific(projThreadKey) {
            return Unmanaged<ProjThreadState>.fromOpaque(existing).takeUnretainedValue()
        }
        let state = ProjThreadState()
        pthread_setspecific(projThreadKey, Unmanaged.passRetained(state).toOpaque())
        return state
    }

    /// A stable identity of this thread's context, for tests that prove contexts are not shared.
    var contextIdentity: ObjectIdentifier { ObjectIdentifier(context) }

    func crs(named name: String) throws(GeoFareError) -> CRS {
        if let known = crsByName[name] { return known }
        let crs = try CRS.create(name, context: context)
        crsByName[name] = crs
        return crs
    }

    /// The transformer between two systems and the direction to run it in.
    ///
    /// One PROJ pipeline serves both directions of a pair, built in a canonical direction
    /// (geographic → projected; otherwise the lexically smaller definition first) so results
    /// never depend on which direction a process happened to ask for first. The other direction
    /// runs it with `PJ_INV` (see ``CoordinateTransformer`` for how that inverse is refined).
    func transformer(from source: CRS, to target: CRS) throws(GeoFareError) -> (ProjTransformer, PJ_DIRECTION) {
        if let built = transformers[TransformerKey(source: source.definition, target: target.definition)] { return (built, PJ_FWD) }
        if let built = transformers[TransformerKey(source: target.definition, target: source.definition)] { return (built, PJ_INV) }
        let forward: Bool
        if source.isGeographic != target.isGeographic {
            forward = source.isGeographic
        } else {
            forward = source.definition <= target.definition
        }
        let (a, b) = forward ? (source, target) : (target, source)
        let built = try ProjTransformer(context: context, source: a, target: b)
        transformers[TransformerKey(source: a.definition, target: b.definition)] = built
        return (built, forward ? PJ_FWD : PJ_INV)
    }
}

@available(*, unavailable)
extension ProjThreadState: Sendable {}

/// The pthread key under which each thread keeps its ``ProjThreadState``; its destructor
/// releases the state (and with it the thread's PROJ objects) when the thread exits.
private let projThreadKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key) { pointer in
        guard let pointer else { return }
        Unmanaged<ProjThreadState>.fromOpaque(pointer).release()
    }
    precondition(status == 0, "pthread_key_create failed: \(status)")
    return key
}()
