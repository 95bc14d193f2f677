/// A destination (or any) position as two doubles, longitude first.
struct LonLat {
    var lon: Double
    var lat: Double
}
