import Foundation
import GeoFareCore
import GeoFareFare
import GeoFarePlaces
import GeoFareGraph
import GeoFareProj
import GeoFareRoute
import GeoFareText

/// `version`: what is loaded (tariffs, zones, traffic, graphs, places).
extension WorkerDispatcher {
    /// `version`: short enough for a first screen; `"catalog": true` adds every tariff (with its
    /// versions and source) and every zone id.
    func version(_ f: RequestFields) throws(GeoFareError) -> JSONValue {
        var result = summary()
        if try f.bool("catalog", default: false), case var .object(o) = result {
            o["tariffs"] = .array(pricer.catalog.tariffs.map { t in
                .object(["id": .string(t.id), "versions": .array(t.versions.map { .string($0.label) }), "source": .string(t.origin)])
            })
            o["zones"] = .array(pricer.catalog.zones.zones.map { .string($0.id) })
            result = .object(o)
        }
        return result
    }

    /// What is loaded, in counts and files.
    private func summary() -> JSONValue {
        .object([
            "geofare": .string(Self.packageVersion), "protocol": .int(Int64(Self.protocolVersion)), "proj": .string(ProjLibrary.version),
            "tariff_count": .int(Int64(pricer.catalog.tariffs.count)),
            "zone_count": .int(Int64(pricer.catalog.zones.zones.count)),
            "route_estimator": .string(pricer.estimator.name),
            // The speed profiles in force: each with the calibrations applied (the data's own and
            // `--traffic` files, in order) and its levels by date.
            "traffic": .array((pricer.circuityEstimator?.profiles ?? []).map { p in
                .object(["profile": .string(p.id), "calibrations": .array(p.calibrations.map { .string($0.name) }),
                         "levels_by_date": .array(p.dated.map { .string($0.date) })])
            }),
            "graphs": .array(((pricer.estimator as? GraphRouteEstimator)?.graphs ?? []).map { entry in
                let m = entry.graph.metadata
                return .object(["file": .string(entry.path), "osm_timestamp": .string(m.osmTimestamp), "profile": .string(m.profileID),
                                "bbox": .object(["west": .double(m.west), "south": .double(m.south), "east": .double(m.east), "north": .double(m.north)]),
                                "nodes": .int(Int64(m.nodeCount)), "arcs": .int(Int64(m.arcCount)), "attribution": .string(m.attribution)])
            }),
            "places": places.map { index in
                let m = index.metadata
                return .object(["file": .string(index.path), "osm_timestamp": .string(m.osmTimestamp), "places": .int(Int64(m.placeCount)),
                                "attribution": .string(m.attribution)])
            } ?? .null,
        ])
    }
}
