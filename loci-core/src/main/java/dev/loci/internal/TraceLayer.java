package dev.loci.internal;

import dev.loci.ConflictException;
import dev.loci.CorruptDataException;
import dev.loci.InvalidRequestException;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.NotFoundException;
import dev.loci.Page;
import dev.loci.StaleVersionException;
import dev.loci.Trace;
import dev.loci.TraceQuery;
import dev.loci.Traces;
import dev.loci.spi.CommandContext;
import dev.loci.spi.Decision;
import dev.loci.spi.Event;
import dev.loci.spi.JournalEntry;
import dev.loci.spi.Layer;
import dev.loci.spi.SubjectMention;
import dev.loci.spi.SubjectRecords;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The trace store of ADR-004 as an engine layer: decisions for Add, AddIdempotent, Update, Revise
 * and Retire, the events they produce, and the projection those events build (held and searched by
 * {@link TraceProjection}).
 *
 * <p>Events (layer {@code trace}), each in the batch's namespace:
 *
 * <ul>
 *   <li>{@code trace.added}, {@code trace.revised}: the whole new trace;
 *   <li>{@code trace.updated}: {@code uid}, {@code content}, {@code updated_at};
 *   <li>{@code trace.retired}, {@code trace.replayed}: {@code uid}.
 * </ul>
 *
 * Content travels as a JSON string holding the caller's compact JSON, so it is kept byte for byte.
 *
 * <p>Not thread-safe by itself: the engine serializes access as {@link Layer} describes.
 */
public final class TraceLayer implements Layer, SubjectRecords {
  /** The layer name and event type prefix. */
  public static final String NAME = "trace";

  static final String ADDED = "trace.added";
  static final String REVISED = "trace.revised";
  static final String UPDATED = "trace.updated";
  static final String RETIRED = "trace.retired";
  static final String REPLAYED = "trace.replayed";

  /** The rule caller-chosen uids follow, as shown in errors. */
  public static final String UID_RULE =
      "1-128 characters from [A-Za-z0-9._:-], starting with a letter or digit";

  private static final Pattern UID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,127}");
  private static final int MAX_TAG_LENGTH = 256;

  /** The most tags one trace may carry: a search index entry per tag, so a bound on the work. */
  public static final int MAX_TAGS = 256;

  private final TraceProjection projection = new TraceProjection();

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int snapshotVersion() {
    return 1;
  }

  // ---------------------------------------------------------------- reads

  /** The trace {@code uid} in {@code ns}, if any. */
  public Optional<Trace> find(Namespace ns, String uid) {
    return projection.find(ns, uid);
  }

  /**
   * The trace {@code uid} in {@code ns}.
   *
   * @throws NotFoundException naming {@code field} if there is none
   */
  public Trace require(Namespace ns, String uid, String field) {
    return find(ns, uid)
        .orElseThrow(
            () ->
                new NotFoundException(field, "no trace with uid '" + uid + "' in namespace " + ns));
  }

  /**
   * The revision chain of {@code uid}: the trace, its predecessor, and so on back to the first
   * version. Stops cleanly where a predecessor is missing.
   *
   * @throws NotFoundException if {@code uid} itself does not exist
   * @throws CorruptDataException if the chain loops back on itself
   */
  public List<Trace> history(Namespace ns, String uid) {
    Trace t = require(ns, uid, "uid");
    List<Trace> chain = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    while (true) {
      if (!seen.add(t.uid())) {
        throw new CorruptDataException(
            "revision chain of trace '"
                + uid
                + "' in namespace "
                + ns
                + " loops back to '"
                + t.uid()
                + "'; the stored data was edited or imported with a cycle");
      }
      chain.add(t);
      if (t.predecessorUid().isEmpty()) {
        return chain;
      }
      Optional<Trace> previous = find(ns, t.predecessorUid().get());
      if (previous.isEmpty()) {
        return chain; // the predecessor is gone: truncate here, as ADR-004 requires
      }
      t = previous.get();
    }
  }

  /** Runs a search; see {@link TraceQuery}. */
  public Page<Trace> search(TraceQuery q) {
    return projection.search(q);
  }

  /**
   * Every namespace holding traces, sorted, with its count (retired ones included) and the creation
   * time of its newest trace.
   */
  public List<Traces.NamespaceCount> namespaceCounts() {
    return projection.namespaceCounts();
  }

  /** How many traces, retired ones included, lie in {@code scope}. */
  public long count(NamespaceScope scope) {
    return projection.count(scope);
  }

  /** How many traces, retired ones included, there are in every namespace. */
  public long total() {
    return projection.total();
  }

  /** Every trace of {@code ns} in listing order, for export. */
  public List<Trace> all(Namespace ns) {
    return projection.all(ns);
  }

  // ---------------------------------------------------------------- decisions

  /**
   * Caller input that has been checked: content is one JSON value in compact form, tags are valid
   * and without duplicates. Checking needs no state, so it happens before a command takes the
   * engine's locks.
   */
  public static final class Draft {
    private final String content;
    private final List<String> tags;
    // encoded on the caller's thread: the event's content field (the content as a JSON string),
    // the tags as a JSON array, and the end of a new trace's event (TraceRecords.event)
    final String contentField;
    final String tagsJson;
    final String freshTail;

    private Draft(String content, List<String> tags) {
      this.content = content;
      this.tags = tags;
      this.contentField = TraceRecords.contentField(content);
      this.tagsJson = TraceRecords.appendTags(new StringBuilder(), tags).toString();
      this.freshTail = TraceRecords.freshTail(tagsJson);
    }

    /** Checks and normalizes {@code content} and {@code tags}. */
    public static Draft of(String content, List<String> tags) {
      return new Draft(Json.compactValue(content, "content"), checkTags(tags));
    }

    /** The content: one JSON value in compact form. */
    public String content() {
      return content;
    }

    /** The tags, valid and without duplicates. */
    public List<String> tags() {
      return tags;
    }
  }

  /** Add: a new trace with a fresh UUID v7, replay count 1. */
  public Decision<Trace> decideAdd(CommandContext ctx, Namespace ns, Draft draft) {
    Trace t = fresh(ctx.newId(), ns, draft.content(), Optional.empty(), ctx.now(), draft.tags());
    return new Decision<>(List.of(TraceRecords.event(ADDED, t, draft)), Set.of(t.uid()), t);
  }

  /**
   * AddNew: a new trace under a caller-chosen uid, which must not be taken. The uid must have
   * passed {@link #checkUid}.
   *
   * @throws ConflictException if a trace with {@code uid} exists in {@code ns}
   */
  public Decision<Trace> decideAddNew(CommandContext ctx, Namespace ns, String uid, Draft draft) {
    if (find(ns, uid).isPresent()) {
      throw new ConflictException(
          "uid: a trace with uid '" + uid + "' already exists in namespace " + ns);
    }
    Trace t = fresh(uid, ns, draft.content(), Optional.empty(), ctx.now(), draft.tags());
    return new Decision<>(List.of(TraceRecords.event(ADDED, t, draft)), Set.of(uid), t);
  }

  /**
   * AddIdempotent: replay count +1 if {@code uid} exists (content kept), else Add with it. The uid
   * must have passed {@link #checkUid}.
   */
  public Decision<Trace> decideAddIdempotent(
      CommandContext ctx, Namespace ns, String uid, Draft draft) {
    Optional<Trace> existing = find(ns, uid);
    if (existing.isPresent()) {
      Trace replayed = existing.get().replayed();
      return new Decision<>(
          List.of(TraceRecords.uidEvent(REPLAYED, replayed)), Set.of(uid), replayed);
    }
    Trace t = fresh(uid, ns, draft.content(), Optional.empty(), ctx.now(), draft.tags());
    return new Decision<>(List.of(TraceRecords.event(ADDED, t, draft)), Set.of(uid), t);
  }

  /**
   * Update: same uid, new content, {@code updated_at} bumped.
   *
   * @param expectedVersion if present, the {@link Trace#version()} the trace must have now
   * @throws StaleVersionException if the trace is at another version
   */
  public Decision<Trace> decideUpdate(
      CommandContext ctx,
      Namespace ns,
      String uid,
      String compactContent,
      Optional<String> expectedVersion) {
    Trace t =
        checkVersion(require(ns, uid, "uid"), expectedVersion)
            .withContent(compactContent, ctx.now());
    StringBuilder data = new StringBuilder(compactContent.length() + 96);
    data.append("{\"uid\":");
    Json.appendQuoted(data, uid).append(",\"content\":");
    Json.appendQuoted(data, compactContent).append(",\"updated_at\":\"");
    Timestamps.append(data, ctx.now()).append("\"}");
    return new Decision<>(List.of(Event.ofJson(UPDATED, data.toString(), t)), Set.of(uid), t);
  }

  /**
   * Revise: a new trace linked to its predecessor, which may be retired.
   *
   * @param expectedVersion if present, the {@link Trace#version()} the predecessor must have now
   * @throws StaleVersionException if the predecessor is at another version
   */
  public Decision<Trace> decideRevise(
      CommandContext ctx,
      Namespace ns,
      String predecessorUid,
      Draft draft,
      Optional<String> expectedVersion) {
    Trace predecessor =
        checkVersion(require(ns, predecessorUid, "predecessor_uid"), expectedVersion);
    if (expectedVersion.isPresent()) {
      // Revising does not change the predecessor's version, so the version alone cannot tell a
      // caller who saw the head from one who did not: a conditional revise of a trace that already
      // has a revision is stale (unconditional revises may still fork, as ADR-004 allows).
      Optional<String> successor = projection.firstSuccessor(ns, predecessorUid);
      if (successor.isPresent()) {
        throw new StaleVersionException(
            "uid: trace '"
                + predecessorUid
                + "' was already revised by '"
                + successor.get()
                + "'; revise the newest version (read it again)",
            predecessorUid,
            expectedVersion.get(),
            predecessor.version());
      }
    }
    Trace t =
        fresh(
            ctx.newId(), ns, draft.content(), Optional.of(predecessorUid), ctx.now(), draft.tags());
    return new Decision<>(
        List.of(TraceRecords.event(REVISED, t, draft)), Set.of(predecessorUid, t.uid()), t);
  }

  /**
   * Retire: hidden from search, kept for get and history. Retiring twice changes nothing.
   *
   * @param expectedVersion if present, the {@link Trace#version()} the trace must have now
   * @throws StaleVersionException if the trace is at another version
   */
  public Decision<Trace> decideRetire(Namespace ns, String uid, Optional<String> expectedVersion) {
    Trace t = checkVersion(require(ns, uid, "uid"), expectedVersion);
    if (t.retired()) {
      return new Decision<>(List.of(), Set.of(uid), t);
    }
    Trace retired = t.asRetired();
    return new Decision<>(List.of(TraceRecords.uidEvent(RETIRED, retired)), Set.of(uid), retired);
  }

  /** One operation of an import, already parsed, with the line it came from. */
  public record ImportOp(long line, String op, Event event, String uid) {}

  /** What an import chunk decided: the events to append and the operations skipped, with why. */
  public record ImportDecision(int applied, Map<Long, String> skipped) {}

  /**
   * Decides a chunk of imported operations in order, each against current state plus the operations
   * before it; operations that do not apply are skipped with a reason.
   */
  public Decision<ImportDecision> decideImport(Namespace ns, List<ImportOp> ops) {
    Map<String, Trace> overlay = new LinkedHashMap<>();
    List<Event> events = new ArrayList<>();
    Set<String> keys = new LinkedHashSet<>();
    Map<Long, String> skipped = new LinkedHashMap<>();
    for (ImportOp op : ops) {
      try {
        projection.applyTo(overlay, ns, null, op.event(), new java.util.IdentityHashMap<>(1));
        events.add(op.event());
        keys.add(op.uid());
      } catch (IllegalStateException e) {
        skipped.put(op.line(), e.getMessage());
      }
    }
    return new Decision<>(events, keys, new ImportDecision(events.size(), skipped));
  }

  // ---------------------------------------------------------------- projection

  @Override
  public Runnable prepare(JournalEntry entry, List<Event> events) {
    Namespace ns = entry.namespace();
    if (events.size() == 1 && isNew(events.get(0))) { // most batches: no overlay needed
      Event e = events.get(0);
      Trace t = projection.newTrace(Map.of(), ns, entry.ts(), e);
      parsed = new Parsed(entry, Collections.singletonMap(e, t));
      return () -> projection.put(ns, t);
    }
    Map<String, Trace> overlay = new LinkedHashMap<>();
    Map<Event, Trace> traces = new java.util.IdentityHashMap<>(events.size());
    for (Event e : events) {
      projection.applyTo(overlay, entry.namespace(), entry.ts(), e, traces);
    }
    parsed = new Parsed(entry, traces); // for mentions of the same batch, asked next
    return () -> projection.putAll(ns, overlay.values());
  }

  private static boolean isNew(Event e) {
    return e.type().equals(ADDED) || e.type().equals(REVISED);
  }

  /** Snapshot records in listing order per namespace, so restoring inserts in sorted order. */
  @Override
  public Iterable<String> capture() {
    return projection.capture();
  }

  @Override
  public void restore(String record, int version) {
    if (version != 1) {
      throw new IllegalArgumentException(
          "trace snapshot records of version " + version + " are unknown; this build reads 1");
    }
    projection.restore(record);
  }

  @Override
  public void clear() {
    projection.clear();
  }

  // ---------------------------------------------------------------- subjects

  /**
   * A trace names subjects by a top-level {@code subject_ids} array of strings in its content; its
   * revisions and updates keep the subjects of what they revise (see {@link TraceSubjects}).
   */
  @Override
  public List<SubjectMention> mentions(JournalEntry entry, Event e) {
    Parsed p = parsed;
    Trace t = p != null && p.entry() == entry ? p.traces().get(e) : null;
    return TraceSubjects.mentions(entry, e, Optional.ofNullable(t));
  }

  /**
   * The traces {@link #prepare} parsed from the events of {@code entry} (replayed events carry no
   * decoded trace), so that the subject layer asking for the same batch's mentions right after does
   * not parse them again. Replaced whole, never changed, so a reader on another thread sees one
   * batch's or another's.
   */
  private record Parsed(JournalEntry entry, Map<Event, Trace> traces) {}

  private volatile Parsed parsed;

  /** An erased trace: see {@link TraceSubjects#scrub}. */
  @Override
  public Event scrub(JournalEntry entry, Event e, Set<String> recordKeys) {
    return TraceSubjects.scrub(entry, e, recordKeys);
  }

  @Override
  public void erase(Set<String> recordKeys) {
    projection.erase(recordKeys);
  }

  // ---------------------------------------------------------------- codecs and checks

  private static Trace fresh(
      String uid,
      Namespace ns,
      String content,
      Optional<String> predecessor,
      Instant now,
      List<String> tags) {
    return new Trace(uid, ns, content, predecessor, now, now, false, 1, tags);
  }

  private static Trace checkVersion(Trace t, Optional<String> expectedVersion) {
    if (expectedVersion.isPresent()) {
      String actual = t.version();
      if (!actual.equals(expectedVersion.get())) {
        throw new StaleVersionException(t.uid(), expectedVersion.get(), actual);
      }
    }
    return t;
  }

  /**
   * Checks a caller-chosen uid.
   *
   * @throws InvalidRequestException naming {@code field}
   */
  public static void checkUid(String uid, String field) {
    if (!UID.matcher(uid).matches()) {
      throw new InvalidRequestException(
          field, "expected " + UID_RULE + ", found '" + shorten(uid) + "'");
    }
  }

  /**
   * Checks tags and removes duplicates, keeping the first occurrence.
   *
   * @throws InvalidRequestException naming {@code tags}
   */
  public static List<String> checkTags(List<String> tags) {
    if (tags.size() > MAX_TAGS) {
      throw new InvalidRequestException(
          "tags", "expected at most " + MAX_TAGS + " tags, found " + tags.size());
    }
    for (String tag : tags) {
      if (tag.isBlank() || tag.length() > MAX_TAG_LENGTH || hasControl(tag)) {
        throw new InvalidRequestException(
            "tags",
            "expected each tag to be 1-"
                + MAX_TAG_LENGTH
                + " characters, not blank, without control characters; found '"
                + shorten(tag)
                + "'");
      }
    }
    List<String> last = lastTags;
    if (last.equals(tags)) {
      return last; // the same tags as the last write: every trace that has them keeps one list
    }
    List<String> clean =
        tags.size() == 1 ? List.of(tags.get(0)) : List.copyOf(new LinkedHashSet<>(tags));
    lastTags = clean;
    return clean;
  }

  // the last tags checkTags returned; shared by threads, an immutable list (a race only misses)
  private static volatile List<String> lastTags = List.of();

  private static boolean hasControl(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (Character.isISOControl(s.charAt(i))) {
        return true;
      }
    }
    return false;
  }

  private static String shorten(String s) {
    return s.length() > 80 ? s.substring(0, 80) + "..." : s;
  }
}
