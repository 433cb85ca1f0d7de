package dev.loci.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.loci.InvalidRequestException;
import dev.loci.Namespace;
import dev.loci.Trace;
import dev.loci.spi.Event;
import java.io.IOException;
import java.io.Writer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The log format of the Go trace store of ADR-004 ({@code adr004-jsonl}): one JSON object per
 * mutation,
 *
 * <pre>
 * {"op":"add","trace":{"uid":"...","content":{...},"predecessor_uid":"","created_at_ns":1,
 *   "updated_at_ns":1,"retired":false,"replay_count":1,"tags":["a"]}}
 * {"op":"update","uid":"...","content":{...},"updated_at_ns":2}
 * {"op":"revise","trace":{...}}
 * {"op":"retire","uid":"..."}
 * {"op":"replay","uid":"..."}
 * </pre>
 *
 * Content is raw JSON; its text is kept exactly. Missing times default to the import time, a
 * missing or zero replay count to 1, an empty {@code predecessor_uid} to none.
 */
public final class Adr004Format {
  private static final JsonFactory FACTORY = Json.MAPPER.getFactory();

  private Adr004Format() {}

  /** A parsed line or the reason it cannot be imported. */
  public record Parsed(TraceLayer.ImportOp op, String error) {}

  /** The fields of a line that matter, with content as raw text. */
  private static final class Fields {
    String op;
    String uid;
    String content;
    String predecessor;
    Long createdNs;
    Long updatedNs;
    boolean retired;
    int replayCount = 1;
    final List<String> tags = new ArrayList<>();
    Fields trace;
  }

  /** Parses one line of an adr004-jsonl file. */
  public static Parsed parse(long lineNo, String line, Namespace ns, Instant importTime) {
    Fields f;
    try {
      f = readObject(line, true);
    } catch (IOException | RuntimeException e) {
      return new Parsed(null, "not a valid JSON object: " + firstLine(e.getMessage()));
    }
    if (f.op == null) {
      return new Parsed(null, "missing field 'op'");
    }
    try {
      return switch (f.op) {
        case "add", "revise" -> {
          if (f.trace == null) {
            yield new Parsed(null, "op '" + f.op + "' needs a 'trace' object");
          }
          Trace t = toTrace(f.trace, ns, importTime);
          String type = t.predecessorUid().isPresent() ? TraceLayer.REVISED : TraceLayer.ADDED;
          yield new Parsed(
              new TraceLayer.ImportOp(lineNo, f.op, TraceRecords.event(type, t), t.uid()), null);
        }
        case "update" -> {
          String uid = requireUid(f.uid, "uid");
          if (f.content == null) {
            yield new Parsed(null, "op 'update' needs 'content'");
          }
          ObjectNode data = Json.object();
          data.put("uid", uid);
          data.put("content", Json.compactValue(f.content, "content"));
          data.put(
              "updated_at",
              Timestamps.format(f.updatedNs == null ? importTime : fromNanos(f.updatedNs)));
          yield new Parsed(
              new TraceLayer.ImportOp(lineNo, f.op, new Event(TraceLayer.UPDATED, data), uid),
              null);
        }
        case "retire", "replay" -> {
          String uid = requireUid(f.uid, "uid");
          ObjectNode data = Json.object();
          data.put("uid", uid);
          String type = f.op.equals("retire") ? TraceLayer.RETIRED : TraceLayer.REPLAYED;
          yield new Parsed(new TraceLayer.ImportOp(lineNo, f.op, new Event(type, data), uid), null);
        }
        default -> new Parsed(null, "unknown op '" + f.op + "'");
      };
    } catch (InvalidRequestException e) {
      return new Parsed(null, e.getMessage());
    }
  }

  private static Trace toTrace(Fields t, Namespace ns, Instant importTime) {
    String uid = requireUid(t.uid, "trace.uid");
    if (t.content == null) {
      throw new InvalidRequestException("trace.content", "missing");
    }
    String content = Json.compactValue(t.content, "trace.content");
    Optional<String> pred = Optional.empty();
    if (t.predecessor != null && !t.predecessor.isEmpty()) {
      TraceLayer.checkUid(t.predecessor, "trace.predecessor_uid");
      pred = Optional.of(t.predecessor);
    }
    Instant created = t.createdNs == null ? importTime : fromNanos(t.createdNs);
    Instant updated = t.updatedNs == null || t.updatedNs == 0 ? created : fromNanos(t.updatedNs);
    return new Trace(
        uid,
        ns,
        content,
        pred,
        created,
        updated,
        t.retired,
        Math.max(1, t.replayCount),
        TraceLayer.checkTags(t.tags));
  }

  private static String requireUid(String uid, String field) {
    if (uid == null) {
      throw new InvalidRequestException(field, "missing");
    }
    TraceLayer.checkUid(uid, field);
    return uid;
  }

  private static Instant fromNanos(long nanos) {
    return Instant.ofEpochSecond(
        Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
  }

  private static long toNanos(Instant t) {
    return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000_000L), t.getNano());
  }

  private static Fields readObject(String line, boolean top) throws IOException {
    try (JsonParser p = FACTORY.createParser(line)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException("expected an object");
      }
      Fields f = readFields(p, line, top);
      if (p.nextToken() != null) {
        throw new IOException("data after the object");
      }
      return f;
    }
  }

  private static Fields readFields(JsonParser p, String line, boolean top) throws IOException {
    Fields f = new Fields();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken v = p.nextToken();
      switch (name) {
        case "op" -> f.op = p.getValueAsString();
        case "uid" -> f.uid = p.getValueAsString();
        case "content" -> {
          int start = (int) p.currentTokenLocation().getCharOffset();
          p.skipChildren();
          p.finishToken(); // scalars are read lazily; the end offset needs the whole token
          int end = (int) p.currentLocation().getCharOffset();
          f.content = v == JsonToken.VALUE_NULL ? null : line.substring(start, end);
        }
        case "predecessor_uid" -> f.predecessor = p.getValueAsString();
        case "created_at_ns" -> f.createdNs = v.isNumeric() ? p.getLongValue() : null;
        case "updated_at_ns" -> f.updatedNs = v.isNumeric() ? p.getLongValue() : null;
        case "retired" -> f.retired = v == JsonToken.VALUE_TRUE;
        case "replay_count" -> f.replayCount = v.isNumeric() ? p.getIntValue() : 1;
        case "tags" -> {
          if (v == JsonToken.START_ARRAY) {
            while (p.nextToken() != JsonToken.END_ARRAY) {
              f.tags.add(p.getValueAsString(""));
            }
          }
        }
        case "trace" -> {
          if (top && v == JsonToken.START_OBJECT) {
            f.trace = readFields(p, line, false);
          } else {
            p.skipChildren();
          }
        }
        default -> p.skipChildren();
      }
    }
    return f;
  }

  /** Writes one trace as the {@code add} or {@code revise} line that recreates it in full. */
  public static void write(Trace t, Writer out) throws IOException {
    ObjectNode trace = Json.object();
    trace.put("uid", t.uid());
    trace.putRawValue("content", new RawValue(t.content()));
    t.predecessorUid().ifPresent(p -> trace.put("predecessor_uid", p));
    trace.put("created_at_ns", toNanos(t.createdAt()));
    trace.put("updated_at_ns", toNanos(t.updatedAt()));
    trace.put("retired", t.retired());
    trace.put("replay_count", t.replayCount());
    ArrayNode tags = trace.putArray("tags");
    t.tags().forEach(tags::add);
    ObjectNode line = Json.object();
    line.put("op", t.predecessorUid().isPresent() ? "revise" : "add");
    line.set("trace", trace);
    out.write(Json.write(line));
    out.write('\n');
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
