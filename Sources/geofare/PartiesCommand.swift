import ArgumentParser
import Foundation
import GeoFareCLI
import GeoFareParties
import GeoFareCore
import GeoFareText

/// `geofare parties import|export`.
struct PartiesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parties",
        abstract: "Import or export the party store.",
        subcommands: [Import.self, Export.self]
    )

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import parties from CSV or JSON lines (by the file's extension) in one transaction.",
            discussion: """
            CSV columns: id,origin_lat,origin_lon,dest_lat,dest_lon,depart_at,seats_total
            [,seats_taken,status]. JSON lines: one party object per line, as in the worker's
            party.upsert. Bad rows are reported on stderr and skipped; the rest is imported.
            """
        )
        @Argument(help: "A .csv or .jsonl file.") var file: String
        @OptionGroup var store: StoreOptions

        func run() throws {
            guard let source = try? ByteSource(path: file) else {
                Diagnostics.print("geofare: cannot open '\(file)'")
                throw GeoFareExit.noInput
            }
            var parties: [Party] = []
            var errors = 0
            if file.hasSuffix(".jsonl") || file.hasSuffix(".ndjson") {
                var data = Data()
                while let chunk = source.next() { data.append(chunk) }
                for (n, line) in data.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
                    do { parties.append(try PartyJSON.partyFromJSON(Array(line))) } catch {
                        errors += 1
                        Diagnostics.print("geofare: \(error.onLine(n + 1)) [\(error.code)]")
                    }
                }
            } else {
                var reader = CSVReader()
                var header: [String]?
                func accept(_ r: CSVReader.Record) {
                    guard let h = header else { header = r.fields.map { String($0.trimmingSpaces()) }; return }
                    do { parties.append(try Self.party(r.fields, header: h)) } catch {
                        errors += 1
                        Diagnostics.print("geofare: \(Self.coded(error).onLine(r.line)) [\(Self.coded(error).code)]")
                    }
                }
                while let chunk = source.next() { reader.feed(chunk, emit: accept) }
                try reader.finish(emit: accept)
            }
            let s = try store.open()
            do { _ = try s.upsertMany(parties, now: Date()) } catch {
                Diagnostics.print("geofare: \(error.message)")
                throw ExitCode(74)
            }
            Diagnostics.print("geofare: imported \(parties.count) parties into \(store.location), \(errors) rows rejected")
            if errors > 0 { throw GeoFareExit.dataError }
        }

        /// Any error of a row as a ``GeoFareError`` (its own, or `internal_error`).
        static func coded(_ error: any Error) -> GeoFareError {
            error as? GeoFareError ?? GeoFareError(code: .internalError, message: "\(error)")
        }

        static func party(_ f: [String], header: [String]) throws -> Party {
            func col(_ name: String) throws -> String {
                guard let i = header.firstIndex(of: name), i < f.count, !f[i].isEmpty else {
                    throw GeoFareError.columnRequired(name)
                }
                return String(f[i].trimmingSpaces())
            }
            func num(_ name: String) throws -> Double {
                let t = try col(name)
                guard let v = Double(t) else { throw GeoFareError.notANumber(t, field: name) }
                return v
            }
            let depart = try col("depart_at")
            guard let when = ISO8601.parse(depart) else { throw GeoFareError.invalidISOTime(depart, field: "depart_at") }
            let origin: Coordinate, destination: Coordinate
            // A missing or non-numeric column names its column; a number out of range names the point.
            let (originLat, originLon) = (try num("origin_lat"), try num("origin_lon"))
            do { origin = try Coordinate(latitude: originLat, longitude: originLon) } catch { throw error.prefixed("origin") }
            let (destLat, destLon) = (try num("dest_lat"), try num("dest_lon"))
            do { destination = try Coordinate(latitude: destLat, longitude: destLon) } catch { throw error.prefixed("destination") }
            let taken = (try? col("seats_taken")).flatMap { Int($0) } ?? 0
            let status = (try? col("status")).flatMap(PartyStatus.init(rawValue:)) ?? .open
            let p = Party(id: try col("id"), origin: origin, destination: destination, departure: when,
                          seatsTotal: Int(try num("seats_total")), seatsTaken: taken, status: status)
            try p.validate()
            return p
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Export every party as JSON lines (default) or CSV.")
        @Option(help: "jsonl or csv.") var format = "jsonl"
        @Option(name: .shortAndLong, help: "Output file, or - for standard output.") var output = "-"
        @OptionGroup var store: StoreOptions

        func run() throws {
            guard ["jsonl", "csv"].contains(format) else { throw ValidationError("--format is jsonl or csv") }
            let opened = try store.open()
            let parties: [Party]
            do { parties = try opened.allParties() } catch {
                Diagnostics.print("geofare: \(error.message)")
                throw ExitCode(74)
            }
            var out: [UInt8] = []
            if format == "csv" {
                CSVWriter.appendRecord(["id", "origin_lat", "origin_lon", "dest_lat", "dest_lon", "depart_at", "seats_total", "seats_taken", "status", "version", "updated_at"], to: &out)
                for p in parties {
                    CSVWriter.appendRecord([p.id, "\(p.origin.latitude)", "\(p.origin.longitude)", "\(p.destination.latitude)", "\(p.destination.longitude)",
                                            ISO8601.utcString(p.departure), "\(p.seatsTotal)", "\(p.seatsTaken)", p.status.rawValue, "\(p.version)",
                                            ISO8601.utcString(p.updatedAt)], to: &out)
                }
            } else {
                for p in parties {
                    JSONWriter.append(PartyJSON.json(p), to: &out)
                    out.append(0x0A)
                }
            }
            if output == "-" { FileHandle.standardOutput.write(Data(out)) } else {
                guard let h = openForWriting(output) else {
                    Diagnostics.print("geofare: cannot write '\(output)'")
                    throw ExitCode(73)
                }
                h.write(Data(out))
            }
        }
    }
}
