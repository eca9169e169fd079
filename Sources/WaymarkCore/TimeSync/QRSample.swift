/// One QR photo: what the camera's clock said when it photographed the recorder's QR code.
public struct QRSample: Sendable {
    /// The photo's name, for reports.
    public var photo: String
    /// The camera's reading for the photo.
    public var camera: CameraTime
    /// What the QR code in the photo said.
    public var payload: QRPayload
    /// Seconds between two refreshes of the QR code (from the route; default 5).
    public var qrPeriod: Double

    /// A sample from its parts.
    public init(photo: String, camera: CameraTime, payload: QRPayload, qrPeriod: Double = 5) {
        self.photo = photo
        self.camera = camera
        self.payload = payload
        self.qrPeriod = qrPeriod
    }

    /// Camera time at the middle of its uncertainty.
    var x: Double { camera.midpoint }
    /// The clock offset this photo alone suggests: the middle of the QR interval minus camera time.
    var offset: Double { Double(payload.time) + qrPeriod / 2 - x }
    /// Half the width of the interval the true offset lies in.
    var bound: Double { qrPeriod / 2 + camera.truncationBound }
}
