import Foundation

/// A structural check of an SQLite file that reads only the b-tree pages' headers: `PRAGMA
/// quick_check` reads every row and takes seconds at 100,000 entries.
///
/// It finds what storage faults leave behind: a file that is not a database, a file cut short,
/// and pages overwritten with something that is not a b-tree page. Pages are read as SQLite
/// would see them, the write-ahead log's committed frames over the file's own, and nothing is
/// ever written. Damage inside a row's bytes is left to SQLite to report when the row is read.
/// A start checks the top of the file (``Extent/atStart``), in the same time at any size; the
/// whole file is read after the window shows (`FeedStore.checkPages()`).
public enum DatabaseFileCheck {
    /// How much of the file a check reads.
    public enum Extent: Sendable, Equatable {
        /// Every page of every table and index: time in proportion to the file (0.4 s at a
        /// million entries), so never on the way to the first frame.
        case whole
        /// The header, the file's size against its page count, the write-ahead log, the schema,
        /// and each table's and index's pages from the root down, a level of every tree at a
        /// time, up to `pages` pages in all: what opening the store reads first.
        case top(pages: Int)

        /// A start's: 1,024 pages (4 MB), so a small store is still read whole before it opens.
        public static let atStart = Extent.top(pages: 1024)
    }

    /// What is wrong with a database file.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// The file does not start with an SQLite header.
        case notADatabase
        /// The file holds `pages` whole pages where the database has `expected`.
        case truncated(pages: Int, expected: Int)
        /// A page that should be part of a table or index is not one.
        case damagedPage(Int, reason: String)
        /// The file could not be read at all.
        case unreadable(String)

        public var description: String {
            switch self {
            case .notADatabase: "the file is not an SQLite database"
            case let .truncated(pages, expected): "the file holds \(pages) of the database's \(expected) pages"
            case let .damagedPage(page, reason): "page \(page) is damaged: \(reason)"
            case let .unreadable(reason): "the file could not be read: \(reason)"
            }
        }
    }

    /// A check started ahead of opening the store, so it runs while the app does other work
    /// (GTK starting); `FeedStore.openHealing` awaits its answer. Reading only, it changes
    /// nothing however early it starts.
    public final class Started: Sendable {
        /// The database file the check reads.
        public let path: String
        private let task: Task<Problem?, Never>

        /// Starts checking `extent` of the database at `path` off the calling thread.
        public init(path: String, extent: Extent = .atStart) {
            self.path = path
            task = Task.detached(priority: .userInitiated) { DatabaseFileCheck.check(path: path, extent: extent) }
        }

        /// What `check(path:)` found.
        public var problem: Problem? {
            get async { await task.value }
        }
    }

    /// Nil when `extent` of the database at `path` looks whole, or there is none yet; otherwise what is wrong.
    public static func check(path: String, extent: Extent = .whole) -> Problem? {
        let main: DatabaseFile
        do {
            guard let opened = try DatabaseFile(path: path) else { return nil }
            main = opened
        } catch {
            return .unreadable("\(error)")
        }
        // An empty file is a database not yet written: SQLite makes it one.
        guard main.size > 0 else { return nil }
        let wal = try? MappedFile(path: path + "-wal")
        return withExtendedLifetime(wal) {
            do {
                var pages = try Pages(file: main, wal: wal?.bytes)
                let roots = try pages.schemaRoots()
                switch extent {
                case .whole: try pages.walkAll(roots)
                case let .top(budget): try pages.walkTops(of: roots, budget: budget)
                }
                return nil
            } catch let problem as Problem {
                return problem
            } catch {
                return .unreadable("\(error)")
            }
        }
    }
}

/// Why a file could not be opened or read.
private struct FileError: Error, CustomStringConvertible {
    var description: String

    /// The system's words for the last call's `errno`.
    static var current: FileError { FileError(description: String(cString: strerror(errno))) }
}

/// The database file, read a page at a time into one buffer. Mapped instead, every page the walk
/// touches would count in the process's resident memory: the whole database, at every start.
private final class DatabaseFile {
    let size: Int
    private let descriptor: Int32

    /// Nil when there is no file at `path`.
    init?(path: String) throws {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw FileError.current
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let error = FileError.current
            close(descriptor)
            throw error
        }
        size = Int(status.st_size)
    }

    deinit {
        close(descriptor)
    }

    /// `count` bytes from `offset` (a multiple of the system's page size) mapped read-only and
    /// read in at once; the caller unmaps them.
    func map(offset: Int, count: Int) throws -> UnsafeRawBufferPointer {
        guard let address = mmap(nil, count, PROT_READ, MAP_PRIVATE | MAP_POPULATE, descriptor, off_t(offset)),
              address != MAP_FAILED else {
            throw DatabaseFileCheck.Problem.unreadable("\(FileError.current)")
        }
        return UnsafeRawBufferPointer(start: address, count: count)
    }

    /// Fills `buffer` from `offset`; throws when the file ends before it is full.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws {
        var done = 0
        while done < buffer.count {
            let count = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw count < 0 ? FileError.current : FileError(description: "the file ends at \(offset + done)") }
            done += count
        }
    }
}

/// A file mapped read-only into memory, so only the pages looked at are read from disk.
private final class MappedFile {
    let bytes: UnsafeRawBufferPointer

    /// Nil when there is no file at `path`.
    init?(path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw FileError.current
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw FileError.current }
        let size = Int(status.st_size)
        guard size > 0 else {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
            throw FileError.current
        }
        bytes = UnsafeRawBufferPointer(start: address, count: size)
    }

    deinit {
        if let start = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: start), bytes.count) }
    }
}

/// One page's bytes, reused for every page read from the file.
private final class PageBuffer {
    let bytes: UnsafeMutableRawBufferPointer

    init(size: Int) {
        bytes = .allocate(byteCount: size, alignment: 8)
    }

    deinit {
        bytes.deallocate()
    }
}

/// The database's pages as SQLite sees them, and the walk over its tables' and indexes' b-trees.
private struct Pages {
    typealias Problem = DatabaseFileCheck.Problem

    let file: DatabaseFile
    let wal: UnsafeRawBufferPointer?
    /// Where `page` reads a page from the file; valid until the next page is read.
    private let buffer: PageBuffer
    let pageSize: Int
    let usableSize: Int
    let count: Int
    /// Where each page's newest committed copy starts in the write-ahead log.
    let walPages: [Int: Int]
    /// The schema's pages, and the pages a walk from the top has read.
    private var visited: Set<Int> = []

    init(file: DatabaseFile, wal: UnsafeRawBufferPointer?) throws {
        guard file.size >= 100 else { throw Problem.notADatabase }
        let headerBuffer = PageBuffer(size: 100)
        do {
            try file.read(into: headerBuffer.bytes, at: 0)
        } catch {
            throw Problem.unreadable("\(error)")
        }
        let header = UnsafeRawBufferPointer(headerBuffer.bytes)
        guard Array(header[0..<16]) == Array("SQLite format 3\0".utf8) else { throw Problem.notADatabase }
        let rawSize = Int(header.bigEndian16(at: 16))
        let pageSize = rawSize == 1 ? 65536 : rawSize
        guard pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else { throw Problem.notADatabase }
        self.file = file
        self.pageSize = pageSize
        buffer = PageBuffer(size: pageSize)
        usableSize = pageSize - Int(header[20])
        guard usableSize >= 480 else { throw Problem.notADatabase }
        let log = wal.flatMap { Self.committedFrames(in: $0, pageSize: pageSize) }
        self.wal = log == nil ? nil : wal
        walPages = log?.pages ?? [:]
        let wholePages = file.size / pageSize
        let headerCount = Int(header.bigEndian32(at: 28))
        // The header's page count is valid only when written by the same change as the counter at 24.
        let headerCountIsValid = headerCount > 0 && header.bigEndian32(at: 92) == header.bigEndian32(at: 24)
        count = log?.databasePages ?? (headerCountIsValid ? headerCount : wholePages)
        if file.size % pageSize != 0 || (log == nil && wholePages < count) {
            throw Problem.truncated(pages: wholePages, expected: count)
        }
    }

    /// The log's newer copy of page `number`, if it holds one.
    func walCopy(of number: Int) -> UnsafeRawBufferPointer? {
        guard let wal, let offset = walPages[number] else { return nil }
        return UnsafeRawBufferPointer(rebasing: wal[offset..<offset + pageSize])
    }

    /// The bytes of page `number` (1-based), from the log when it holds a newer copy; valid
    /// until the next call.
    func page(_ number: Int) throws -> UnsafeRawBufferPointer {
        if let offset = walPages[number], let wal {
            return UnsafeRawBufferPointer(rebasing: wal[offset..<offset + pageSize])
        }
        let start = (number - 1) * pageSize
        guard start + pageSize <= file.size else { throw Problem.truncated(pages: file.size / pageSize, expected: count) }
        do {
            try file.read(into: buffer.bytes, at: start)
        } catch {
            throw Problem.unreadable("\(error)")
        }
        return UnsafeRawBufferPointer(buffer.bytes)
    }

    /// The root pages of every table and index the schema names, once its own b-tree is checked.
    mutating func schemaRoots() throws -> [Int] {
        var roots: [Int] = []
        let usableSize = usableSize
        try walkSchema { cell in
            if let root = try Self.rootPage(ofSchemaCell: cell, usableSize: usableSize), root > 0 { roots.append(root) }
        }
        for root in roots where root > count || visited.contains(root) || roots.firstIndex(of: root) != roots.lastIndex(of: root) {
            throw Problem.damagedPage(1, reason: "the schema names page \(root)")
        }
        return roots
    }

    /// Walks every table's and index's b-tree from `roots`. The schema's pages are read one by
    /// one; every other page's header is read in one pass in the file's order (``PageHeaders``),
    /// in half the time of a `pread` of each page where its tree leads (docs/performance.md, Scale).
    func walkAll(_ roots: [Int]) throws {
        guard !roots.isEmpty else { return }
        let headers = try PageHeaders(of: self)
        var seen = Array(repeating: false, count: count + 1)
        for number in visited { seen[number] = true }
        for root in roots { try walk(root: root, headers: headers, seen: &seen) }
    }

    /// Checks the b-trees at `roots` from the top down, a level of every tree at a time, until
    /// `budget` pages are read: each page's kind and cells, as ``walkAll(_:)`` does.
    mutating func walkTops(of roots: [Int], budget: Int) throws {
        var level = roots.map { (page: $0, root: $0) }
        var isTable: [Int: Bool] = [:]
        var read = 0
        while !level.isEmpty {
            var next: [(page: Int, root: Int)] = []
            for (number, root) in level {
                guard read < budget else { return }
                read += 1
                guard visited.insert(number).inserted else { throw Problem.damagedPage(number, reason: "the page is in two places of the tree") }
                let bytes = try page(number)
                let kind = bytes[0]
                guard [2, 5, 10, 13].contains(kind) else { throw Problem.damagedPage(number, reason: "not a b-tree page") }
                let table = kind == 5 || kind == 13
                if let known = isTable[root], known != table { throw Problem.damagedPage(number, reason: "a page of another kind of tree") }
                isTable[root] = table
                var children: [Int] = []
                try checkCells(of: bytes, number: number, kind: kind) { children.append($0) }
                for child in children { next.append((try self.child(child, of: number), root)) }
            }
            level = next
        }
    }

    /// Checks every page of the b-tree at `root` from `headers`, as ``walkSchema(leafCell:)`` checks the schema's.
    private func walk(root: Int, headers: PageHeaders, seen: inout [Bool]) throws {
        var pending = [root]
        var isTable: Bool?
        while let number = pending.popLast() {
            guard !seen[number] else { throw Problem.damagedPage(number, reason: "the page is in two places of the tree") }
            seen[number] = true
            if let problem = headers.problems[number] { throw problem }
            let kind = headers.kinds[number]
            guard [2, 5, 10, 13].contains(kind) else { throw Problem.damagedPage(number, reason: "not a b-tree page") }
            let table = kind == 5 || kind == 13
            if let isTable, isTable != table { throw Problem.damagedPage(number, reason: "a page of another kind of tree") }
            isTable = table
            for index in headers.childStart[number]..<headers.childStart[number + 1] {
                pending.append(try child(Int(headers.children[Int(index)]), of: number))
            }
        }
    }

    /// The structure of the b-tree page `bytes` (page `number`): its cells' places, and its
    /// children when it is an interior page, each passed to `child`. Throws what is wrong.
    fileprivate func checkCells(of bytes: UnsafeRawBufferPointer, number: Int, kind: UInt8, child: (Int) -> Void) throws {
        let header = number == 1 ? 100 : 0
        let interior = kind == 2 || kind == 5
        let headerSize = interior ? 12 : 8
        let cells = Int(bytes.bigEndian16(at: header + 3))
        let rawContentStart = Int(bytes.bigEndian16(at: header + 5))
        let contentStart = rawContentStart == 0 ? 65536 : rawContentStart
        let pointers = header + headerSize
        guard pointers + 2 * cells <= contentStart, contentStart <= usableSize else {
            throw Problem.damagedPage(number, reason: "its cells overlap its header")
        }
        for index in 0..<cells {
            let cell = Int(bytes.bigEndian16(at: pointers + 2 * index))
            guard cell >= contentStart, cell + 4 <= usableSize else {
                throw Problem.damagedPage(number, reason: "cell \(index) points outside the page")
            }
            if interior { child(Int(bytes.bigEndian32(at: cell))) }
        }
        if interior { child(Int(bytes.bigEndian32(at: header + 8))) }
    }

    /// Checks every page of the schema's b-tree (from page 1): its kind, its cell pointers and its
    /// children; `leafCell` sees each leaf cell's bytes (up to the page's end).
    private mutating func walkSchema(leafCell: (UnsafeRawBufferPointer) throws -> Void) throws {
        var pending = [1]
        var isTable: Bool?
        while let number = pending.popLast() {
            guard visited.insert(number).inserted else { throw Problem.damagedPage(number, reason: "the page is in two places of the tree") }
            let bytes = try page(number)
            let header = number == 1 ? 100 : 0
            let kind = bytes[header]
            guard [2, 5, 10, 13].contains(kind) else { throw Problem.damagedPage(number, reason: "not a b-tree page") }
            let table = kind == 5 || kind == 13
            if let isTable, isTable != table { throw Problem.damagedPage(number, reason: "a page of another kind of tree") }
            isTable = table
            var children: [Int] = []
            try checkCells(of: bytes, number: number, kind: kind) { children.append($0) }
            for child in children { pending.append(try self.child(child, of: number)) }
            if kind == 10 || kind == 13 {
                let cells = Int(bytes.bigEndian16(at: header + 3))
                for index in 0..<cells {
                    let cell = Int(bytes.bigEndian16(at: header + 8 + 2 * index))
                    try leafCell(UnsafeRawBufferPointer(rebasing: bytes[cell..<usableSize]))
                }
            }
        }
    }

    /// `number`, a child of page `parent`, when it is a page of the database that no walk has read yet.
    private func child(_ number: Int, of parent: Int) throws -> Int {
        guard number >= 2, number <= count else { throw Problem.damagedPage(parent, reason: "a child page \(number) out of range") }
        guard !visited.contains(number) else { throw Problem.damagedPage(parent, reason: "a child page \(number) used twice") }
        return number
    }

    /// The `rootpage` column of an `sqlite_schema` row, or nil when it lies in an overflow page.
    private static func rootPage(ofSchemaCell cell: UnsafeRawBufferPointer, usableSize: Int) throws -> Int? {
        var reader = VarintReader(bytes: cell)
        let damaged = Problem.damagedPage(1, reason: "a schema row cannot be read")
        guard let payloadSize = reader.next(), reader.next() != nil else { throw damaged }
        // How much of the payload is on the page (SQLite's file format, "cell payload overflow").
        let maxLocal = usableSize - 35
        let minLocal = (usableSize - 12) * 32 / 255 - 23
        var local = Int(payloadSize)
        if local > maxLocal {
            let spilled = minLocal + (local - minLocal) % (usableSize - 4)
            local = spilled <= maxLocal ? spilled : minLocal
        }
        guard reader.offset + local <= cell.count else { throw damaged }
        var record = VarintReader(bytes: UnsafeRawBufferPointer(rebasing: cell[reader.offset..<reader.offset + local]))
        guard let headerSize = record.next(), headerSize <= local else { throw damaged }
        var types: [UInt64] = []
        while record.offset < Int(headerSize), types.count < 4, let type = record.next() { types.append(type) }
        guard types.count == 4 else { throw damaged }
        var offset = Int(headerSize)
        for type in types.prefix(3) { offset += Self.size(ofSerialType: type) }
        let rootType = types[3]
        let rootSize = Self.size(ofSerialType: rootType)
        guard offset + rootSize <= local else { return nil }
        switch rootType {
        case 0, 8: return 0
        case 9: return 1
        case 1...6:
            var value: Int64 = Int64(Int8(bitPattern: record.bytes[offset]))
            for index in 1..<rootSize { value = value << 8 | Int64(record.bytes[offset + index]) }
            return Int(value)
        default: throw damaged
        }
    }

    private static func size(ofSerialType type: UInt64) -> Int {
        switch type {
        case 0, 8, 9: 0
        case 1...4: Int(type)
        case 5: 6
        case 6, 7: 8
        default: type >= 12 ? Int((type - 12) / 2) : 0
        }
    }

    /// The log's frames up to its last commit, checked as SQLite checks them; nil when the log
    /// is absent, empty or from a database with another page size.
    private static func committedFrames(in wal: UnsafeRawBufferPointer, pageSize: Int) -> (pages: [Int: Int], databasePages: Int)? {
        guard wal.count >= 32 else { return nil }
        let magic = wal.bigEndian32(at: 0)
        guard magic & 0xFFFF_FFFE == 0x377F_0682, Int(wal.bigEndian32(at: 8)) == pageSize else { return nil }
        let bigEndian = magic & 1 == 1
        var sums = checksum(UnsafeRawBufferPointer(rebasing: wal[0..<24]), bigEndian: bigEndian, from: (0, 0))
        guard sums == (wal.bigEndian32(at: 24), wal.bigEndian32(at: 28)) else { return nil }
        let salts = (wal.bigEndian32(at: 16), wal.bigEndian32(at: 20))
        var committed: [Int: Int] = [:], pending: [Int: Int] = [:]
        var databasePages: Int?
        var offset = 32
        while offset + 24 + pageSize <= wal.count {
            guard (wal.bigEndian32(at: offset + 8), wal.bigEndian32(at: offset + 12)) == salts else { break }
            sums = checksum(UnsafeRawBufferPointer(rebasing: wal[offset..<offset + 8]), bigEndian: bigEndian, from: sums)
            sums = checksum(UnsafeRawBufferPointer(rebasing: wal[offset + 24..<offset + 24 + pageSize]), bigEndian: bigEndian, from: sums)
            guard sums == (wal.bigEndian32(at: offset + 16), wal.bigEndian32(at: offset + 20)) else { break }
            pending[Int(wal.bigEndian32(at: offset))] = offset + 24
            let sizeAfterCommit = Int(wal.bigEndian32(at: offset + 4))
            if sizeAfterCommit > 0 {
                committed.merge(pending) { _, newer in newer }
                pending = [:]
                databasePages = sizeAfterCommit
            }
            offset += 24 + pageSize
        }
        return databasePages.map { (committed, $0) }
    }

    /// SQLite's write-ahead log checksum, continued from `sums` over `bytes` (a multiple of 8 long).
    private static func checksum(_ bytes: UnsafeRawBufferPointer, bigEndian: Bool, from sums: (UInt32, UInt32)) -> (UInt32, UInt32) {
        var (first, second) = sums
        var offset = 0
        while offset + 8 <= bytes.count {
            let a = bigEndian ? bytes.bigEndian32(at: offset) : bytes.littleEndian32(at: offset)
            let b = bigEndian ? bytes.bigEndian32(at: offset + 4) : bytes.littleEndian32(at: offset + 4)
            first = first &+ a &+ second
            second = second &+ b &+ first
            offset += 8
        }
        return (first, second)
    }
}

/// Every page's kind, what is wrong with its cells when it is a b-tree page, and an interior
/// page's children, read in one pass in the file's order through windows of the file mapped a
/// few megabytes at a time (each unmapped once read, so the file's pages do not stay resident),
/// the log's newer copies read in their place. Pages that are no b-tree's (overflow, free) are
/// read too, and judged only if a tree leads to them.
private struct PageHeaders {
    typealias Problem = DatabaseFileCheck.Problem

    /// The kind byte of each page, by number (1-based); 0 for a page the file does not hold.
    private(set) var kinds: [UInt8]
    /// What is wrong with a page that has a b-tree page's kind, or that the file does not hold.
    private(set) var problems: [Int: Problem] = [:]
    /// The children of page `n` are `children[childStart[n]..<childStart[n + 1]]`.
    private(set) var childStart: [Int32]
    private(set) var children: [Int32] = []

    /// Bytes mapped at a time: a multiple of any page size and of the system's.
    private static let windowSize = 8 << 20

    init(of pages: Pages) throws {
        kinds = Array(repeating: 0, count: pages.count + 2)
        childStart = Array(repeating: 0, count: pages.count + 2)
        let pageSize = pages.pageSize
        let inFile = min(pages.count, pages.file.size / pageSize)
        var number = 1
        while number <= pages.count {
            let windowStart = (number - 1) * pageSize
            let windowPages = min(Self.windowSize / pageSize, inFile - (number - 1))
            if windowPages > 0 {
                let window = try pages.file.map(offset: windowStart, count: windowPages * pageSize)
                defer { munmap(UnsafeMutableRawPointer(mutating: window.baseAddress!), window.count) }
                for index in 0..<windowPages {
                    record(number + index, bytes: pages.walCopy(of: number + index)
                        ?? UnsafeRawBufferPointer(rebasing: window[index * pageSize..<(index + 1) * pageSize]), in: pages)
                }
                number += windowPages
            } else {
                // Beyond the file's end: only the log may hold the page.
                if let copy = pages.walCopy(of: number) {
                    record(number, bytes: copy, in: pages)
                } else {
                    problems[number] = .truncated(pages: pages.file.size / pageSize, expected: pages.count)
                    childStart[number + 1] = Int32(children.count)
                }
                number += 1
            }
        }
    }

    private mutating func record(_ number: Int, bytes: UnsafeRawBufferPointer, in pages: Pages) {
        let kind = bytes[number == 1 ? 100 : 0]
        kinds[number] = kind
        if [2, 5, 10, 13].contains(kind) {
            let first = children.count
            do {
                try pages.checkCells(of: bytes, number: number, kind: kind) { children.append(Int32(truncatingIfNeeded: $0)) }
            } catch let problem as Problem {
                children.removeSubrange(first...)
                problems[number] = problem
            } catch {
                problems[number] = .unreadable("\(error)")
            }
        }
        childStart[number + 1] = Int32(children.count)
    }
}

/// Reads SQLite's variable-length integers one after another.
private struct VarintReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    mutating func next() -> UInt64? {
        var value: UInt64 = 0
        for index in 0..<9 {
            guard offset < bytes.count else { return nil }
            let byte = bytes[offset]
            offset += 1
            if index == 8 { return value << 8 | UInt64(byte) }
            value = value << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 { return value }
        }
        return value
    }
}

private extension UnsafeRawBufferPointer {
    func bigEndian16(at offset: Int) -> UInt16 { UInt16(self[offset]) << 8 | UInt16(self[offset + 1]) }

    func bigEndian32(at offset: Int) -> UInt32 {
        UInt32(self[offset]) << 24 | UInt32(self[offset + 1]) << 16 | UInt32(self[offset + 2]) << 8 | UInt32(self[offset + 3])
    }

    func littleEndian32(at offset: Int) -> UInt32 {
        UInt32(self[offset + 3]) << 24 | UInt32(self[offset + 2]) << 16 | UInt32(self[offset + 1]) << 8 | UInt32(self[offset])
    }
}
