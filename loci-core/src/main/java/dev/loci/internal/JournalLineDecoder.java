package dev.loci.internal;

import static dev.loci.internal.JournalLines.ACTOR_MARK;
import static dev.loci.internal.JournalLines.DATA_MARK;
import static dev.loci.internal.JournalLines.EVENTS_MARK;
import static dev.loci.internal.JournalLines.NS_MARK;
import static dev.loci.internal.JournalLines.SEQ_MARK;
import static dev.loci.internal.JournalLines.TS_MARK;
import static dev.loci.internal.JournalLines.TYPE_MARK;
import static java.nio.charset.StandardCharsets.UTF_8;

import dev.loci.Namespace;
import dev.loci.spi.Event;
import dev.loci.spi.JournalEntry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The fast path of {@link JournalLines#decode}: reads a line laid out exactly as {@link
 * JournalLines#encode} writes it ({@code seq}, {@code ts}, {@code ns}, {@code actor}, {@code
 * events} of {@code type} and {@code data}, in that order, no whitespace between fields) straight
 * from its bytes, with no parser, token or copy of the line. Replay decodes millions of lines, and
 * a Jackson parser per line (its context, symbol table and buffers) cost more than the rest.
 *
 * <p>It answers null for anything else: a field out of order, an escape in a header string, an
 * event's data that {@link JsonBytes} is not sure of. The caller then decodes the line with
 * Jackson, which gives the verdict. So the result of a line this path reads is the one Jackson's
 * path would give, and every line it does not read is judged as before.
 */
final class JournalLineDecoder {
  private JournalLineDecoder() {}

  /**
   * Decodes a line whose checksum has been checked, or returns null if it is not in the form the
   * encoder writes or does not decode.
   */
  static JournalEntry decode(byte[] b, int off, int len, Map<String, Namespace> namespaces) {
    int end = off + len - JournalLines.SUFFIX_LENGTH; // the checksummed prefix ends here
    if (!at(b, off, end, SEQ_MARK)) {
      return null;
    }
    int i = off + SEQ_MARK.length;
    long seq = 0;
    int digits = 0;
    while (i < end && b[i] >= '0' && b[i] <= '9' && digits < 18) {
      seq = seq * 10 + (b[i++] - '0');
      digits++;
    }
    if (digits == 0 || b[off + SEQ_MARK.length] == '0' || !at(b, i, end, TS_MARK)) {
      return null; // a leading zero is not JSON; zero itself is refused by the full path
    }
    int tsStart = i + TS_MARK.length;
    int tsEnd = plainString(b, tsStart, end);
    if (tsEnd < 0 || !at(b, tsEnd, end, NS_MARK)) {
      return null;
    }
    int nsStart = tsEnd + NS_MARK.length;
    int nsEnd = plainString(b, nsStart, end);
    if (nsEnd < 0 || !at(b, nsEnd, end, ACTOR_MARK)) {
      return null;
    }
    int actorStart = nsEnd + ACTOR_MARK.length;
    int actorEnd =
        actorStart < end && b[actorStart] == '"' ? plainString(b, actorStart + 1, end) : -1;
    if (actorEnd < 0 || !at(b, actorEnd + 1, end, EVENTS_MARK)) {
      return null;
    }
    i = actorEnd + 1 + EVENTS_MARK.length;
    List<Event> events = new ArrayList<>(2);
    try {
      while (true) {
        if (!at(b, i, end, TYPE_MARK)) {
          return null;
        }
        int typeStart = i + TYPE_MARK.length;
        int typeEnd = plainString(b, typeStart, end);
        if (typeEnd < 0 || !at(b, typeEnd, end, DATA_MARK)) {
          return null;
        }
        int dataStart = typeEnd + DATA_MARK.length;
        int dataEnd = JsonBytes.skipValue(b, dataStart, end);
        if (dataEnd < 0 || dataEnd >= end || b[dataEnd] != '}') {
          return null;
        }
        events.add(
            Event.ofJson(
                new String(b, typeStart, typeEnd - typeStart, UTF_8),
                new String(b, dataStart, dataEnd - dataStart, UTF_8)));
        i = dataEnd + 1;
        if (i < end && b[i] == ',') {
          i++;
        } else {
          break;
        }
      }
      if (i != end - 1 || b[i] != ']') {
        return null;
      }
      String ns = new String(b, nsStart, nsEnd - nsStart, UTF_8);
      Namespace namespace = JournalLines.namespace(namespaces, ns);
      Instant ts = Timestamps.parse(b, tsStart, tsEnd);
      String actor = new String(b, actorStart + 1, actorEnd - actorStart - 1, UTF_8);
      return new JournalEntry(seq, ts, namespace, actor, events);
    } catch (RuntimeException e) {
      return null; // a bad type, namespace or time: the full path reports it
    }
  }

  /**
   * The index of the closing quote of a string whose text starts at {@code i} and holds no escape
   * (so its text is its bytes), or -1.
   */
  private static int plainString(byte[] b, int i, int end) {
    int close = JsonBytes.skipString(b, i - 1, end) - 1;
    if (close < 0) {
      return -1;
    }
    for (int k = i; k < close; k++) {
      if (b[k] == '\\') {
        return -1;
      }
    }
    return close;
  }

  private static boolean at(byte[] b, int i, int end, byte[] mark) {
    if (i < 0 || end - i < mark.length) {
      return false;
    }
    for (int k = 0; k < mark.length; k++) {
      if (b[i + k] != mark[k]) {
        return false;
      }
    }
    return true;
  }
}
