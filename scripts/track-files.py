#!/usr/bin/env python3
"""Writes track files with tools nobody at Waymark wrote, and reads them back with reference readers.

Used by the track-format tests (Tests/WaymarkCoreTests/*ReaderTests.swift) and scripts/bench-tracks,
through the venv of scripts/bootstrap (.build-venv/tools/bin/python).

  write fit FILE [--fixes N] [--sessions K] [--pause-at I]
                                              activity through fit-tool (FitFileBuilder)
  write fit-compressed FILE                   hand-built: compressed-timestamp headers, a big-endian
                                              definition and a developer field (fit-tool cannot write these)
  write gpx|tcx|igc|csv FILE [--fixes N]      plain text for the benchmark
  read fit FILE                               fitparse's records as JSON [[unix, lat, lon, alt|null], ...]
  read gpx FILE                               gpxpy's points, same shape
  bench FORMAT FILE                           the reference reader for the benchmark: prints the fix count
"""
import argparse
import json
import math
import struct
import sys

FIT_EPOCH = 631065600  # 1989-12-31T00:00:00Z in Unix seconds
START = 1_700_000_000  # 2023-11-14T22:13:20Z


def fix(i):
    """The i-th fix of a synthetic track: a slow spiral around Bled, one second apart."""
    lat = 46.3683 + 0.001 * math.sin(i / 500) + i * 1e-6
    lon = 14.1146 + 0.001 * math.cos(i / 500) - i * 1e-6
    alt = 480 + 20 * math.sin(i / 300)
    return START + i, lat, lon, alt


def write_fit(path, fixes, sessions, pause_at=None):
    from fit_tool.fit_file_builder import FitFileBuilder
    from fit_tool.profile.messages.event_message import EventMessage
    from fit_tool.profile.messages.file_id_message import FileIdMessage
    from fit_tool.profile.messages.record_message import RecordMessage
    from fit_tool.profile.messages.session_message import SessionMessage
    from fit_tool.profile.profile_type import Event, EventType, FileType, Manufacturer

    builder = FitFileBuilder(auto_define=True, min_string_size=50)
    message = FileIdMessage()
    message.type = FileType.ACTIVITY
    message.manufacturer = Manufacturer.DEVELOPMENT.value
    message.product = 0
    message.time_created = START * 1000
    message.serial_number = 0x12345678
    builder.add(message)
    per_session = max(1, fixes // sessions)
    index = 0
    for session in range(sessions):
        count = per_session if session < sessions - 1 else fixes - index
        # Sessions are an hour apart, the way a multisport or "save and start again" file looks.
        offset = session * 3600
        first = fix(index)[0] + offset
        event = EventMessage()
        event.event = Event.TIMER
        event.event_type = EventType.START
        event.timestamp = first * 1000
        builder.add(event)
        for k in range(count):
            if pause_at is not None and index + k == pause_at:
                # Auto-pause: the timer stops, nothing is recorded for two minutes, it starts again.
                for kind, at in ((EventType.STOP_ALL, fix(index + k - 1)[0]), (EventType.START, fix(index + k)[0] + 120)):
                    event = EventMessage()
                    event.event = Event.TIMER
                    event.event_type = kind
                    event.timestamp = (at + offset) * 1000
                    builder.add(event)
                offset += 120
            t, lat, lon, alt = fix(index + k)
            record = RecordMessage()
            record.timestamp = (t + offset) * 1000
            record.position_lat = lat
            record.position_long = lon
            if (index + k) % 2 == 0:
                record.enhanced_altitude = alt
            else:
                record.altitude = alt
            builder.add(record)
            if (index + k) % 97 == 5:
                # A record without a position (GPS not yet locked, or a tunnel): no fix.
                blind = RecordMessage()
                blind.timestamp = (t + offset) * 1000 + 500
                blind.heart_rate = 120
                builder.add(blind)
        last = fix(index + count - 1)[0] + offset
        offset = session * 3600
        event = EventMessage()
        event.event = Event.TIMER
        event.event_type = EventType.STOP_ALL
        event.timestamp = last * 1000
        builder.add(event)
        summary = SessionMessage()
        summary.timestamp = last * 1000
        summary.start_time = first * 1000
        summary.total_elapsed_time = last - first
        builder.add(summary)
        index += count
    builder.build().to_file(path)


def fit_crc(data, crc=0):
    table = [0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
             0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400]
    for byte in data:
        tmp = table[crc & 0xF]
        crc = (crc >> 4) & 0x0FFF
        crc = crc ^ tmp ^ table[byte & 0xF]
        tmp = table[crc & 0xF]
        crc = (crc >> 4) & 0x0FFF
        crc = crc ^ tmp ^ table[(byte >> 4) & 0xF]
    return crc


def write_fit_compressed(path):
    """A FIT file byte by byte, per the FIT protocol document (fit-tool writes only normal headers).

    - file_id (global 0), little-endian, local type 0.
    - developer_data_id (207) and field_description (206) so that fitparse knows the developer field.
    - record (20) defined big-endian on local type 1 with a full timestamp, position, enhanced_altitude
      and one 2-byte developer field; one record with that full timestamp.
    - record (20) defined little-endian on local type 2 without a timestamp: then records with
      compressed-timestamp headers (offsets 1, 2, ... wrapping past 31 so the rollover is used),
      one of them without a position (0x7FFFFFFF).
    """
    body = bytearray()

    def definition(local, global_number, fields, big_endian=False, developer=()):
        header = 0x40 | local | (0x20 if developer else 0)
        endian = ">" if big_endian else "<"
        out = bytes([header, 0, 1 if big_endian else 0]) + struct.pack(endian + "H", global_number) + bytes([len(fields)])
        for number, size, base in fields:
            out += bytes([number, size, base])
        if developer:
            out += bytes([len(developer)])
            for number, size, index in developer:
                out += bytes([number, size, index])
        return out

    # file_id: type (0, enum) = 4 activity, manufacturer (1, uint16) = 255 development, time_created (4, uint32).
    body += definition(0, 0, [(0, 1, 0x00), (1, 2, 0x84), (4, 4, 0x86)])
    body += bytes([0x00, 4]) + struct.pack("<HI", 255, START - FIT_EPOCH)
    # developer_data_id: developer_data_index (3, uint8) = 0.
    body += definition(3, 207, [(3, 1, 0x02)])
    body += bytes([0x03, 0])
    # field_description: developer_data_index (0), field_definition_number (1), fit_base_type_id (2) = uint16,
    # field_name (3, string[8]).
    body += definition(3, 206, [(0, 1, 0x02), (1, 1, 0x02), (2, 1, 0x02), (3, 8, 0x07)])
    body += bytes([0x03, 0, 0, 0x84]) + b"power\0\0\0"
    # record, big-endian: timestamp (253), lat (0), long (1), enhanced_altitude (78) + developer field 0 (2 bytes).
    body += definition(1, 20, [(253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85), (78, 4, 0x86)],
                       big_endian=True, developer=[(0, 2, 0)])
    t0, lat, lon, alt = fix(0)
    body += bytes([0x01]) + struct.pack(">IiiI", t0 - FIT_EPOCH, round(lat * 2**31 / 180), round(lon * 2**31 / 180),
                                        round((alt + 500) * 5)) + struct.pack(">H", 250)
    # record, little-endian, no timestamp field: compressed headers carry the time.
    body += definition(2, 20, [(0, 4, 0x85), (1, 4, 0x85), (2, 2, 0x84)])
    last = t0 - FIT_EPOCH
    for i in range(1, 80):
        t, lat, lon, alt = fix(i)
        t += i  # two seconds apart, so the 5-bit offset wraps every 16 records
        value = t - FIT_EPOCH
        assert value - last < 32
        header = 0x80 | (2 << 5) | (value & 0x1F)
        last = value
        if i == 40:
            body += bytes([header]) + struct.pack("<iiH", 0x7FFFFFFF, 0x7FFFFFFF, 0xFFFF)
        else:
            body += bytes([header]) + struct.pack("<iiH", round(lat * 2**31 / 180), round(lon * 2**31 / 180),
                                                  round((alt + 500) * 5))
    header = struct.pack("<BBHI4s", 14, 0x20, 2132, len(body), b".FIT")
    header += struct.pack("<H", fit_crc(header))
    data = header + body
    data += struct.pack("<H", fit_crc(data))
    with open(path, "wb") as out:
        out.write(data)


def read_fit(path):
    import fitparse
    fixes = []
    for message in fitparse.FitFile(path, check_crc=True).get_messages("record"):
        values = message.get_values()
        lat, lon = values.get("position_lat"), values.get("position_long")
        if lat is None or lon is None:
            continue
        stamp = values["timestamp"]
        unix = stamp.replace(tzinfo=__import__("datetime").timezone.utc).timestamp()
        alt = values.get("enhanced_altitude")
        if alt is None:
            alt = values.get("altitude")
        fixes.append([unix, lat * 180 / 2**31, lon * 180 / 2**31, alt])
    return fixes


def read_gpx(path):
    import gpxpy
    with open(path) as source:
        gpx = gpxpy.parse(source)
    return [[p.time.timestamp(), p.latitude, p.longitude, p.elevation]
            for track in gpx.tracks for segment in track.segments for p in segment.points if p.time]


def iso(t):
    import datetime
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def write_text(kind, path, fixes):
    rows = [fix(i) for i in range(fixes)]
    with open(path, "w", newline="") as out:
        if kind == "gpx":
            out.write('<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="track-files.py" '
                      'xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>\n')
            for t, lat, lon, alt in rows:
                out.write(f'<trkpt lat="{lat:.7f}" lon="{lon:.7f}"><ele>{alt:.1f}</ele><time>{iso(t)}</time></trkpt>\n')
            out.write("</trkseg></trk></gpx>\n")
        elif kind == "tcx":
            out.write('<?xml version="1.0" encoding="UTF-8"?>\n<TrainingCenterDatabase '
                      'xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"><Activities>'
                      f'<Activity Sport="Biking"><Id>{iso(rows[0][0])}</Id><Lap StartTime="{iso(rows[0][0])}"><Track>\n')
            for t, lat, lon, alt in rows:
                out.write(f"<Trackpoint><Time>{iso(t)}</Time><Position><LatitudeDegrees>{lat:.7f}</LatitudeDegrees>"
                          f"<LongitudeDegrees>{lon:.7f}</LongitudeDegrees></Position><AltitudeMeters>{alt:.1f}"
                          "</AltitudeMeters></Trackpoint>\n")
            out.write("</Track></Lap></Activity></Activities></TrainingCenterDatabase>\n")
        elif kind == "igc":
            import datetime
            day = datetime.datetime.fromtimestamp(rows[0][0], datetime.timezone.utc)
            out.write(f"AXXX001 track-files.py\r\nHFDTE{day:%d%m%y}\r\n")
            for t, lat, lon, alt in rows:
                clock = datetime.datetime.fromtimestamp(t, datetime.timezone.utc)
                la, lo = abs(lat), abs(lon)
                out.write(f"B{clock:%H%M%S}{int(la):02d}{round((la % 1) * 60000):05d}{'N' if lat >= 0 else 'S'}"
                          f"{int(lo):03d}{round((lo % 1) * 60000):05d}{'E' if lon >= 0 else 'W'}A"
                          f"{round(alt):05d}{round(alt):05d}\r\n")
        elif kind == "csv":
            out.write("time,lat,lon,elevation,accuracy,bearing,speed,satellites,provider\n")
            for t, lat, lon, alt in rows:
                out.write(f"{iso(t)},{lat:.7f},{lon:.7f},{alt:.1f},4.0,,,9,gps\n")


def bench(kind, path):
    """The plainest reference reader of each format; returns the number of fixes."""
    if kind == "fit":
        return len(read_fit(path))
    if kind == "gpx":
        return len(read_gpx(path))
    if kind == "csv":
        import csv
        with open(path, newline="") as source:
            return sum(1 for row in csv.DictReader(source) if row["lat"] and row["lon"] and row["time"])
    if kind == "tcx":
        import xml.etree.ElementTree as ET
        ns = "{http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2}"
        count = 0
        for point in ET.parse(path).getroot().iter(ns + "Trackpoint"):
            if point.find(ns + "Position") is not None and point.find(ns + "Time") is not None:
                count += 1
        return count
    if kind == "igc":
        count = 0
        with open(path) as source:
            for line in source:
                if line.startswith("B") and len(line) >= 35:
                    int(line[1:7]), float(line[7:14]), float(line[15:23])
                    count += 1
        return count
    raise SystemExit(f"no reference reader for {kind}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("action", choices=["write", "read", "bench"])
    parser.add_argument("kind")
    parser.add_argument("file")
    parser.add_argument("--fixes", type=int, default=300)
    parser.add_argument("--sessions", type=int, default=1)
    parser.add_argument("--pause-at", type=int, help="fit: a timer stop and start (auto-pause) before this fix")
    args = parser.parse_args()
    if args.action == "write":
        if args.kind == "fit":
            write_fit(args.file, args.fixes, args.sessions, args.pause_at)
        elif args.kind == "fit-compressed":
            write_fit_compressed(args.file)
        else:
            write_text(args.kind, args.file, args.fixes)
    elif args.action == "read":
        json.dump(read_fit(args.file) if args.kind == "fit" else read_gpx(args.file), sys.stdout)
    else:
        print(bench(args.kind, args.file))


if __name__ == "__main__":
    main()
