import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// The answer to one HTTP request, before any redirect is followed.
struct HTTPHop: Sendable {
    var response: HTTPURLResponse
    var body: Data
}

/// Why one HTTP request produced no answer.
enum HTTPHopFailure: Error {
    case tooLarge
    case timedOut
    case cancelled
    case network(URLError)
}

/// Runs data tasks for a `URLSession`, enforcing a size cap and an overall deadline per task.
///
/// The session's own `timeoutIntervalForRequest` only measures idle time between packets on Linux,
/// so a server trickling bytes would never time out; the deadline here bounds the whole transfer.
/// Redirects are handed back rather than followed, so the fetcher can tell permanent moves apart.
final class HTTPTransferDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct Transfer {
        var limit: Int
        var body = Data()
        var response: HTTPURLResponse?
        var failure: HTTPHopFailure?
        var continuation: CheckedContinuation<Result<HTTPHop, HTTPHopFailure>, Never>
    }

    private let transfers = Mutex<[Int: Transfer]>([:])

    /// Performs `request` once, collecting at most `limit` bytes of body within `timeout`.
    func perform(_ request: URLRequest, in session: URLSession, limit: Int, timeout: Duration) async -> Result<HTTPHop, HTTPHopFailure> {
        let task = session.dataTask(with: request)
        let identifier = task.taskIdentifier
        let deadline = Task { [weak self] in
            try await Task.sleep(for: timeout)
            self?.fail(identifier, with: .timedOut)
            task.cancel()
        }
        defer { deadline.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                transfers.withLock { $0[identifier] = Transfer(limit: limit, continuation: continuation) }
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    private func fail(_ identifier: Int, with failure: HTTPHopFailure) {
        transfers.withLock { transfers in
            if transfers[identifier]?.failure == nil {
                transfers[identifier]?.failure = failure
            }
        }
    }

    // MARK: - URLSessionDataDelegate

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let allowed = transfers.withLock { transfers -> Bool in
            guard let limit = transfers[dataTask.taskIdentifier]?.limit else { return false }
            transfers[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse
            // Content-Length is the compressed size when gzip is used; a larger one already exceeds the cap.
            if response.expectedContentLength > Int64(limit) {
                transfers[dataTask.taskIdentifier]?.failure = .tooLarge
                return false
            }
            return true
        }
        completionHandler(allowed ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overLimit = transfers.withLock { transfers -> Bool in
            guard var transfer = transfers[dataTask.taskIdentifier], transfer.failure == nil else { return false }
            transfers[dataTask.taskIdentifier] = nil
            transfer.body.append(data)
            if transfer.body.count > transfer.limit {
                transfer.failure = .tooLarge
                transfer.body = Data()
            }
            transfers[dataTask.taskIdentifier] = transfer
            return transfer.failure != nil
        }
        if overLimit {
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        let result: Result<HTTPHop, HTTPHopFailure>
        if let failure = transfer.failure {
            result = .failure(failure)
        } else if let error = error as? URLError {
            switch error.code {
            case .timedOut: result = .failure(.timedOut)
            case .cancelled: result = .failure(.cancelled)
            default: result = .failure(.network(error))
            }
        } else if let error {
            result = .failure(.network(URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "\(error)"])))
        } else if let response = transfer.response ?? (task.response as? HTTPURLResponse) {
            result = .success(HTTPHop(response: response, body: transfer.body))
        } else {
            result = .failure(.network(URLError(.badServerResponse)))
        }
        transfer.continuation.resume(returning: result)
    }
}
