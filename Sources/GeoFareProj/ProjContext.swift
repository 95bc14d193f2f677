import CProj

/// Owns one PROJ context (`PJ_CONTEXT*`) and frees it on `deinit`.
///
/// PROJ contexts are not thread-safe, so this type is not `Sendable`: each thread has its own,
/// held by ``ProjThreadState``. Network access (grid downloads) is switched off, and PROJ's log
/// is captured here instead of being printed, so nothing PROJ says reaches stdout.
@_spi(Benchmark) public final class ProjContext {
    /// The C context. Valid for the life of this object.
    let raw: OpaquePointer
    /// The last message PROJ logged on this context, if any.
    private(set) var lastLogMessage: String?

    @_spi(Benchmark) public init() {
        // proj_context_create returns NULL only when memory runs out.
        guard let ctx = proj_context_create() else { fatalError("PROJ: proj_context_create failed (out of memory)") }
        raw = ctx
        proj_context_set_enable_network(ctx, 0)
        proj_log_level(ctx, PJ_LOG_ERROR)
        proj_log_func(ctx, Unmanaged.passUnretained(self).toOpaque()) { appData, _, message in
            guard let appData, let message else { return }
            Unmanaged<ProjContext>.fromOpaque(appData).takeUnretainedValue().lastLogMessage = String(cString: message)
        }
    }

    deinit {
        proj_context_destroy(raw)
    }

    /// Takes (and clears) the last logged message, or the text of the context's error number.
    func takeError() -> String? {
        defer { lastLogMessage = nil }
        if let message = lastLogMessage { return message }
        let errno = proj_context_errno(raw)
        guard errno != 0, let text = proj_context_errno_string(raw, errno) else { return nil }
        return String(cString: text)
    }
}

@available(*, unavailable)
extension ProjContext: Sendable {}

/// Facts about the linked PROJ library.
public enum ProjLibrary {
    /// The PROJ release linked at run time, e.g. `9.1.1`.
    public static var version: String { String(cString: proj_info().version) }
}
