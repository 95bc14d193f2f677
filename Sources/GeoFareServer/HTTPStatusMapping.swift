import GeoFareCore
import Hummingbird
import Logging

/// The HTTP status of an answer, by its error code: 200 for a success, 404 for an op or a thing
/// that is not there, 503 for what the server cannot do now (its store, a timeout, data it was
/// started without), 500 for a fault of ours, 400 for every other error of the request.
enum HTTPStatusMapping {
    static func status(for code: ErrorCode?) -> HTTPResponse.Status {
        guard let code else { return .ok }
        switch code {
        case .unknownOp, .notFound, .unknownCluster: return .notFound
        case .internalError: return .internalServerError
        case .storageError, .storageCorrupt, .unavailable, .placesNotLoaded, .requestTimeout: return .serviceUnavailable
        case .unsupportedMediaType: return .unsupportedMediaType
        default: return .badRequest
        }
    }
}

/// Answers every error the router or a handler throws as the protocol's JSON error object, with
/// its HTTP status: a path that is not there 404 (`not_found`, field `path`), a body over the
/// limit 413 (`request_too_large`), a body that is not JSON 415 (`unsupported_media_type`),
/// anything else 500 (`internal_error`). Counts every response by status.
struct JSONErrorMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPBodyError {
            switch error {
            case let .tooLarge(limit):
                response = Routes.json(Routes.errorBody(GeoFareError(code: .requestTooLarge, message: "the body is larger than \(limit) bytes (--max-body-bytes)", field: "body")),
                                       status: .contentTooLarge)
            case let .unsupportedMediaType(type):
                response = Routes.json(Routes.errorBody(GeoFareError(code: .unsupportedMediaType, message: "the body is '\(type)', not application/json", field: "content-type")),
                                       status: .unsupportedMediaType)
            }
        } catch let error as HTTPError where error.status == .notFound || error.status == .methodNotAllowed {
            let what = error.status == .notFound ? "no such path" : "\(request.method) is not served here"
            response = Routes.json(Routes.errorBody(GeoFareError(code: .notFound, message: "\(what): \(request.uri.path)", field: "path")),
                                   status: error.status)
        } catch {
            context.logger.error("internal error: \(error)")
            response = Routes.json(Routes.errorBody(GeoFareError(code: .internalError, message: "\(error)")), status: .internalServerError)
        }
        metrics.record(status: response.status.code)
        return response
    }
}
