import WaymarkCore

/// The recorder's devices and storage, behind the protocols of WaymarkCore's Recording folder:
/// location sources, the SQLite store and the upload queue; and ``RecordingController``, the
/// recording loop every shell drives.
public enum WaymarkRecorder {}
