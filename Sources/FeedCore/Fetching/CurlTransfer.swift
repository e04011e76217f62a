import CCurl
import Foundation
import Synchronization

/// What takes a libcurl transfer's header lines and body pieces; each call returns how many
/// bytes it took, and fewer than it was given makes curl stop the transfer.
protocol CurlReceiver: AnyObject {
    func header(_ line: UnsafeRawBufferPointer) -> Int
    func body(_ bytes: UnsafeRawBufferPointer) -> Int
}

/// One libcurl transfer of an http or https address, driven through a multi handle on a thread
/// of its own so that cancelling the task waiting for it stops it at once (`curl_multi_wakeup`
/// ends curl's wait). `HTTPTransfer` and `EnclosureDownload` set their own options on `easy`.
final class CurlTransfer: @unchecked Sendable {
    /// Why a transfer has no result of curl's.
    enum Interruption: Error {
        case cancelled
        /// libcurl itself failed, in these words.
        case libcurl(String)
    }

    private static let globalInit: Void = {
        curl_global_init(Int(CURL_GLOBAL_ALL))
    }()

    // The handles are used by the transfer's thread only, except `multi` for the thread-safe
    // `curl_multi_wakeup` that the cancellation handler calls.
    let easy: UnsafeMutableRawPointer
    private let multi: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let cancelled = Atomic(false)
    /// Set while `drive` runs only, so that a receiver owning its transfer is not kept by it.
    private var receiver: (any CurlReceiver)?

    /// Prepares the transfer of `url`, sending `headers` ("Name: value" lines).
    init(url: URL, userAgent: String, headers: [String] = []) {
        _ = Self.globalInit
        // Both fail only when memory runs out, which nothing here could recover from.
        easy = curl_easy_init()!
        multi = curl_multi_init()!
        for header in headers {
            headerList = curl_slist_append(headerList, header)
        }
        ccurl_setopt_string(easy, CURLOPT_URL, url.absoluteString)
        ccurl_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        ccurl_setopt_string(easy, CURLOPT_USERAGENT, userAgent)
        if let headerList { ccurl_setopt_pointer(easy, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headerList)) }
        ccurl_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        let context = Unmanaged.passUnretained(self).toOpaque()
        ccurl_setopt_write_function(easy, CURLOPT_HEADERFUNCTION) { buffer, size, count, context in
            Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue().receiver?
                .header(UnsafeRawBufferPointer(start: UnsafeRawPointer(buffer), count: size * count)) ?? 0
        }
        ccurl_setopt_pointer(easy, CURLOPT_HEADERDATA, context)
        ccurl_setopt_write_function(easy, CURLOPT_WRITEFUNCTION) { buffer, size, count, context in
            Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue().receiver?
                .body(UnsafeRawBufferPointer(start: UnsafeRawPointer(buffer), count: size * count)) ?? 0
        }
        ccurl_setopt_pointer(easy, CURLOPT_WRITEDATA, context)
    }

    deinit {
        curl_multi_remove_handle(multi, easy)
        curl_easy_cleanup(easy)
        curl_multi_cleanup(multi)
        curl_slist_free_all(headerList)
    }

    /// Runs `work`, which drives this transfer, on a new thread; cancelling the calling task
    /// stops the transfer at once.
    func onItsOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread { continuation.resume(returning: work()) }
            }
        } onCancel: {
            cancelled.store(true, ordering: .sequentiallyConsistent)
            curl_multi_wakeup(multi)
        }
    }

    /// Runs the transfer to its end, handing what arrives to `receiver`; blocks the calling thread.
    func drive(delivering receiver: any CurlReceiver) -> Result<CURLcode, Interruption> {
        self.receiver = receiver
        defer { self.receiver = nil }
        curl_multi_add_handle(multi, easy)
        var running: Int32 = 1
        while running > 0 {
            guard !cancelled.load(ordering: .sequentiallyConsistent) else { return .failure(.cancelled) }
            guard curl_multi_perform(multi, &running) == CURLM_OK else { return .failure(.libcurl("libcurl failed")) }
            if running > 0 { curl_multi_poll(multi, nil, 0, 1000, nil) }
        }
        var queued: Int32 = 0
        guard let message = curl_multi_info_read(multi, &queued), message.pointee.msg == CURLMSG_DONE else {
            return .failure(.libcurl("libcurl did not finish the transfer"))
        }
        return .success(ccurl_message_result(message))
    }
}
