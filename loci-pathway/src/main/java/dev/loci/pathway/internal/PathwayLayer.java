package dev.loci.pathway.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.ConflictException;
import dev.loci.InvalidRequestException;
import dev.loci.Namespace;
import dev.loci.NotFoundException;
import dev.loci.pathway.PathwayIdentity;
import dev.loci.pathway.PathwayTrace;
import dev.loci.pathway.PathwayWrite;
import dev.loci.pathway.RedactionPolicy;
import dev.loci.spi.CommandContext;
import dev.loci.spi.ContentRedaction;
import dev.loci.spi.Decision;
import dev.loci.spi.Event;
import dev.loci.spi.JournalEntry;
import dev.loci.spi.Layer;
import dev.loci.spi.SnapshotRecords;
import dev.loci.spi.SubjectMention;
import dev.loci.spi.SubjectRecords;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The pathway-memory projection (spec sections 5 to 7) and the decisions of its commands.
 *
 * <p>The traces and the queries over them are {@link PathwayShelves}', the JSON of the events and
 * snapshot records {@link PathwayRecords}'; this class decides the commands and applies their
 * events. Redaction policies are kept by the namespace they were set on.
 *
 * <p>Events (data fields):
 *
 * <ul>
 *   <li>{@code pathway.inserted}: {@code trace} (the whole trace as stored), {@code redactions};
 *   <li>{@code pathway.revised}: the same; applying it also marks the trace's parent superseded, at
 *       the new trace's {@code created_at};
 *   <li>{@code pathway.replayed}: {@code trace_uid}, {@code succeeded};
 *   <li>{@code pathway.retired}: {@code pathway_id}, and for the record {@code trace_uid}, {@code
 *       replay_count}, {@code replays_succeeded} of the replay that tripped the probation gate;
 *   <li>{@code pathway.imported}: {@code traces} (stored as given), {@code redactions}, {@code
 *       last_updated_at} (optional);
 *   <li>{@code pathway.redaction_set}: {@code policy}: {@code enabled}, {@code rules} of {@code
 *       name}, {@code regex}.
 * </ul>
 *
 * <p>Not thread-safe by itself: the engine serializes changes and guards reads (see {@link
 * dev.loci.spi.Layer}).
 */
public final class PathwayLayer extends PathwayShelves
    implements Layer, SubjectRecords, ContentRedaction {
  /** The layer's name and event-type prefix. */
  public static final String NAME = "pathway";

  static final String INSERTED = "pathway.inserted";
  static final String REVISED = "pathway.revised";
  static final String REPLAYED = "pathway.replayed";
  static final String RETIRED = "pathway.retired";
  static final String IMPORTED = "pathway.imported";
  static final String REDACTION_SET = "pathway.redaction_set";

  /** The probation gate (spec section 5.4): replays needed before it can fire. */
  public static final int PROBATION_MIN_REPLAYS = 3;

  /** The probation gate: a success rate below this retires the pathway. */
  public static final double PROBATION_MIN_SUCCESS_RATE = 0.80;

  private final Map<Namespace, RedactionPolicy> policies = new HashMap<>();

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int snapshotVersion() {
    return 1;
  }

  // ---------------------------------------------------------------- decisions

  /**
   * Decides an insert (spec section 5.1): a fresh UUID v7, version 1, {@code created_at} now, the
   * vector computed, counters at 0, redacted by the namespace's policy. A trace inserted into a
   * retired pathway is retired too: retirement is per id and irreversible.
   */
  public Decision<PathwayWrite> decideInsert(
      CommandContext ctx, Namespace ns, PathwayTrace template, Redactions redacted) {
    String pathwayId = identity(template);
    boolean retired = bucket(ns, pathwayId).map(b -> b.retired).orElse(false);
    PathwayWrite w =
        assemble(
            ns,
            template,
            redacted,
            pathwayId,
            ctx.newId(),
            1,
            Optional.empty(),
            ctx.now(),
            0,
            0,
            retired);
    return new Decision<>(
        List.of(PathwayRecords.writeEvent(INSERTED, w)), Set.of(pathwayKey(pathwayId)), w);
  }

  /**
   * Decides a revise (spec section 5.2): a new head version of {@code traceUid} made by {@code
   * change}, in the same pathway, carrying the replay counters and the retired flag forward.
   *
   * @throws NotFoundException naming {@code trace_uid} if there is no such trace
   * @throws ConflictException if the trace is not the head version
   * @throws InvalidRequestException naming {@code task_class}, {@code file_path} or {@code
   *     signal_class} if the change would move the trace to another pathway
   */
  public Decision<PathwayWrite> decideRevise(
      CommandContext ctx,
      Namespace ns,
      String traceUid,
      UnaryOperator<PathwayTrace> change,
      Redactions redacted) {
    PathwayTrace prev = require(ns, traceUid);
    if (prev.supersededByTraceUid().isPresent()) {
      throw new ConflictException(
          "trace_uid: "
              + traceUid
              + " is version "
              + prev.version()
              + ", superseded by "
              + prev.supersededByTraceUid().get()
              + "; only the head version can be revised");
    }
    PathwayTrace template = change.apply(prev);
    String pathwayId = identity(prev);
    if (!identity(template).equals(pathwayId)) {
      String field =
          !template.taskClass().equals(prev.taskClass())
              ? "task_class"
              : !template.signalClass().equals(prev.signalClass()) ? "signal_class" : "file_path";
      throw new InvalidRequestException(
          field,
          "a revision stays in its pathway: expected task_class, the file_path prefix '"
              + PathwayIdentity.filePrefix(prev.filePath())
              + "' and signal_class to be unchanged");
    }
    boolean retired = bucket(ns, prev.pathwayId()).map(b -> b.retired).orElse(false);
    PathwayWrite w =
        assemble(
            ns,
            template,
            redacted,
            prev.pathwayId(),
            ctx.newId(),
            prev.version() + 1,
            Optional.of(traceUid),
            ctx.now(),
            prev.replayCount(),
            prev.replaysSucceeded(),
            retired);
    return new Decision<>(
        List.of(PathwayRecords.writeEvent(REVISED, w)),
        Set.of(pathwayKey(prev.pathwayId()), traceUid),
        w);
  }

  /**
   * Decides {@code record_replay} (spec sections 5.3 and 5.4): counts the replay on the head
   * version of the trace's chain and, if the probation gate fires, retires its pathway in the same
   * batch. Counters follow the chain: a revision carries them forward, and a replay reported
   * against a version superseded meanwhile counts on the head, so heads hold every replay.
   *
   * @throws NotFoundException naming {@code trace_uid} if there is no such trace
   */
  public Decision<PathwayTrace> decideReplay(Namespace ns, String reportedUid, boolean succeeded) {
    PathwayTrace t = head(ns, require(ns, reportedUid));
    String traceUid = t.traceUid();
    int count = Math.addExact(t.replayCount(), 1);
    int ok = t.replaysSucceeded() + (succeeded ? 1 : 0);
    ObjectNode replayed = PathwayJson.MAPPER.createObjectNode();
    replayed.put("trace_uid", traceUid).put("succeeded", succeeded);
    List<Event> events = new ArrayList<>();
    events.add(new Event(REPLAYED, replayed));
    boolean retired = bucket(ns, t.pathwayId()).map(b -> b.retired).orElse(false);
    if (!retired && probationFires(count, ok)) {
      ObjectNode r = PathwayJson.MAPPER.createObjectNode();
      r.put("pathway_id", t.pathwayId())
          .put("trace_uid", traceUid)
          .put("replay_count", count)
          .put("replays_succeeded", ok);
      events.add(new Event(RETIRED, r));
      retired = true;
    }
    PathwayTrace after =
        t.toBuilder().replayCount(count).replaysSucceeded(ok).retired(retired).build();
    Set<String> keys = new HashSet<>(List.of(pathwayKey(t.pathwayId()), traceUid, reportedUid));
    return new Decision<>(events, keys, after);
  }

  /** The head version of {@code t}'s chain; {@code t} itself if a link is missing or loops. */
  private PathwayTrace head(Namespace ns, PathwayTrace t) {
    PathwayTrace at = t;
    Set<String> seen = new HashSet<>();
    while (at.supersededByTraceUid().isPresent() && seen.add(at.traceUid())) {
      Optional<PathwayTrace> next = find(ns, at.supersededByTraceUid().get());
      if (next.isEmpty()) {
        break;
      }
      at = next.get();
    }
    return at;
  }

  /** Whether the probation gate (spec section 5.4) fires for these counters. */
  public static boolean probationFires(int replayCount, int replaysSucceeded) {
    return replayCount >= PROBATION_MIN_REPLAYS
        && (double) replaysSucceeded / replayCount < PROBATION_MIN_SUCCESS_RATE;
  }

  /** Decides setting the redaction policy of {@code ns}. */
  public Decision<RedactionPolicy> decideRedactionPolicy(RedactionPolicy policy) {
    ObjectNode data = PathwayJson.MAPPER.createObjectNode();
    data.set("policy", RedactionPolicyJson.toJson(policy));
    return new Decision<>(List.of(new Event(REDACTION_SET, data)), Set.of("redaction"), policy);
  }

  /**
   * Decides importing {@code traces} as they are, after redaction; those whose uid {@code ns}
   * already holds, or that appear earlier in the list, are skipped.
   *
   * @return the number imported, the number skipped and the number of redactions
   */
  public Decision<int[]> decideImport(
      Namespace ns, List<PathwayTrace> traces, Optional<Instant> lastUpdatedAt) {
    RedactionPolicy policy = policyFor(ns);
    Shelf shelf = shelves.get(ns);
    ArrayNode out = PathwayJson.MAPPER.createArrayNode();
    Set<String> keys = new HashSet<>();
    int skipped = 0;
    int redactions = 0;
    for (PathwayTrace t : traces) {
      if (!keys.add(t.traceUid()) || shelf != null && shelf.contains(t.traceUid())) {
        skipped++;
        continue;
      }
      keys.add(pathwayKey(t.pathwayId()));
      RedactionPolicy.Redacted summary = policy.redact(t.reducerSummary());
      RedactionPolicy.Redacted verdict = policy.redact(t.finalVerdict());
      int n = summary.count() + verdict.count();
      PathwayTrace stored =
          n == 0
              ? t
              : t.toBuilder().reducerSummary(summary.text()).finalVerdict(verdict.text()).build();
      redactions += n;
      out.add(PathwayRecords.tree(stored));
    }
    int imported = out.size();
    if (imported == 0 && lastUpdatedAt.isEmpty()) {
      return new Decision<>(List.of(), keys, new int[] {0, skipped, 0});
    }
    ObjectNode data = PathwayJson.MAPPER.createObjectNode();
    data.set("traces", out);
    data.put("redactions", redactions);
    lastUpdatedAt.ifPresent(at -> data.put("last_updated_at", at.toString()));
    return new Decision<>(
        List.of(new Event(IMPORTED, data)), keys, new int[] {imported, skipped, redactions});
  }

  private PathwayWrite assemble(
      Namespace ns,
      PathwayTrace template,
      Redactions redacted,
      String pathwayId,
      String uid,
      int version,
      Optional<String> parent,
      Instant now,
      int replayCount,
      int replaysSucceeded,
      boolean retired) {
    RedactionPolicy policy = policyFor(ns);
    RedactionPolicy.Redacted summary = redacted.redact(policy, template.reducerSummary());
    RedactionPolicy.Redacted verdict = redacted.redact(policy, template.finalVerdict());
    PathwayTrace t =
        template.toBuilder()
            .pathwayId(pathwayId)
            .traceUid(uid)
            .version(version)
            .parentTraceUid(parent)
            .supersededAt(Optional.empty())
            .supersededByTraceUid(Optional.empty())
            .createdAt(now)
            .reducerSummary(summary.text())
            .finalVerdict(verdict.text())
            .pathwayVec(null)
            .replayCount(replayCount)
            .replaysSucceeded(replaysSucceeded)
            .retired(retired)
            .legacy(false)
            .build();
    return new PathwayWrite(t, summary.count() + verdict.count());
  }

  private static String identity(PathwayTrace t) {
    return PathwayIdentity.pathwayId(t.taskClass(), t.filePath(), t.signalClass());
  }

  private static String pathwayKey(String pathwayId) {
    return "pathway:" + pathwayId;
  }

  // ---------------------------------------------------------------- queries

  /** Redacts trace content or nodes of {@code ns} where its policy extends to them. */
  @Override
  public Optional<UnaryOperator<String>> redactor(Namespace ns, String kind) {
    RedactionPolicy p = policyFor(ns);
    boolean applies =
        switch (kind) {
          case ContentRedaction.TRACE -> p.traceContent();
          case ContentRedaction.NODE -> p.nodeContent();
          default -> false;
        };
    return applies ? Optional.of(text -> p.redact(text).text()) : Optional.empty();
  }

  /** The redaction policy in force for {@code ns}: its own, its nearest ancestor's, or defaults. */
  public RedactionPolicy policyFor(Namespace ns) {
    if (policies.isEmpty()) {
      return RedactionPolicy.defaults(); // no namespace has one: skip walking the ancestors
    }
    for (Optional<Namespace> n = Optional.of(ns); n.isPresent(); n = n.get().parent()) {
      RedactionPolicy p = policies.get(n.get());
      if (p != null) {
        return p;
      }
    }
    return RedactionPolicy.defaults();
  }

  // ---------------------------------------------------------------- projection

  @Override
  public Runnable prepare(JournalEntry entry, List<Event> events) {
    Namespace ns = entry.namespace();
    List<Runnable> steps = new ArrayList<>();
    Set<String> added = new HashSet<>();
    Set<String> superseded = new HashSet<>();
    long[] redactions = {0};
    for (Event e : events) {
      switch (e.type()) {
        case INSERTED, REVISED -> {
          PathwayWrite w =
              e.decoded()
                  .map(PathwayWrite.class::cast)
                  .orElseGet(() -> PathwayRecords.readWrite(e.data()));
          PathwayTrace t = w.trace();
          checkNew(ns, t, added);
          if (e.type().equals(REVISED)) {
            String parentUid =
                t.parentTraceUid()
                    .orElseThrow(() -> new IllegalStateException("revision without a parent"));
            if (!added.contains(parentUid)) {
              PathwayTrace parent =
                  find(ns, parentUid)
                      .orElseThrow(
                          () -> new IllegalStateException("parent " + parentUid + " is missing"));
              if (parent.supersededAt().isPresent() || !superseded.add(parentUid)) {
                throw new IllegalStateException("parent " + parentUid + " is not a head version");
              }
            }
            steps.add(() -> supersede(ns, parentUid, t));
          }
          redactions[0] += w.redactions();
          steps.add(() -> shelf(ns).put(t));
        }
        case REPLAYED -> {
          String uid = PathwayRecords.text(e.data(), "trace_uid");
          boolean ok = e.data().path("succeeded").asBoolean();
          if (!added.contains(uid)) {
            require(ns, uid);
          }
          steps.add(() -> replayed(ns, uid, ok));
        }
        case RETIRED -> {
          String pathwayId = PathwayRecords.text(e.data(), "pathway_id");
          steps.add(
              () -> {
                Shelf s = shelf(ns);
                if (!s.buckets.containsKey(pathwayId)) {
                  throw new IllegalStateException("pathway " + pathwayId + " is missing");
                }
                s.retire(pathwayId);
              });
          if (bucket(ns, pathwayId).isEmpty() && added.isEmpty()) {
            throw new IllegalStateException("pathway " + pathwayId + " does not exist in " + ns);
          }
        }
        case IMPORTED -> {
          List<PathwayTrace> traces = new ArrayList<>();
          for (JsonNode n : e.data().path("traces")) {
            PathwayTrace t = PathwayRecords.readTrace(n);
            checkNew(ns, t, added);
            traces.add(t);
          }
          redactions[0] += e.data().path("redactions").asLong();
          // an import keeps the file's own time (or its newest trace's), not the import's
          JsonNode at = e.data().get("last_updated_at");
          Instant fileTime = Instant.EPOCH;
          for (PathwayTrace t : traces) {
            fileTime = latest(fileTime, t.supersededAt().orElse(t.createdAt()));
          }
          Instant lastUpdated = at == null ? fileTime : Instant.parse(at.asText());
          steps.add(
              () -> {
                Shelf s = shelf(ns);
                traces.forEach(s::put);
                s.lastUpdated = latest(s.lastUpdated, lastUpdated);
              });
        }
        case REDACTION_SET -> {
          RedactionPolicy p = RedactionPolicyJson.fromJson(e.data().path("policy"));
          steps.add(() -> policies.put(ns, p));
        }
        default -> throw new IllegalStateException("unknown event type '" + e.type() + "'");
      }
    }
    Instant ts = entry.ts();
    boolean changesTraces =
        events.stream()
            .anyMatch(e -> !e.type().equals(REDACTION_SET) && !e.type().equals(IMPORTED));
    return () -> {
      steps.forEach(Runnable::run);
      if (redactions[0] > 0) {
        shelf(ns).redactions += redactions[0];
      }
      if (changesTraces) {
        Shelf s = shelf(ns);
        s.lastUpdated = latest(s.lastUpdated, ts);
      }
    };
  }

  private static Instant latest(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }

  // ---------------------------------------------------------------- subjects

  @Override
  public List<SubjectMention> mentions(JournalEntry entry, Event e) {
    return switch (e.type()) {
      case INSERTED, REVISED ->
          List.of(
              PathwayErasure.mention(
                  e.decoded()
                      .map(PathwayWrite.class::cast)
                      .orElseGet(() -> PathwayRecords.readWrite(e.data()))
                      .trace()));
      case IMPORTED ->
          PathwayErasure.imported(e.data()).stream().map(PathwayErasure::mention).toList();
      case REPLAYED ->
          List.of(
              SubjectMention.touch("pathway_trace", PathwayRecords.text(e.data(), "trace_uid")));
      default -> List.of();
    };
  }

  @Override
  public Event scrub(JournalEntry entry, Event e, Set<String> recordKeys) {
    return switch (e.type()) {
      case INSERTED, REVISED, IMPORTED -> PathwayErasure.scrub(entry, e, recordKeys);
      default -> e;
    };
  }

  @Override
  public void erase(Set<String> recordKeys) {
    shelves.forEach(
        (ns, s) -> {
          boolean erased = false;
          for (PathwayTrace t : s.traces()) {
            if (recordKeys.contains(SubjectMention.key(ns, t.traceUid()))) {
              s.replace(PathwayErasure.erased(t));
              erased = true;
            }
          }
          if (erased) {
            s.repack(); // the pool lets go of the erased strings
          }
        });
  }

  private void checkNew(Namespace ns, PathwayTrace t, Set<String> added) {
    if (!added.add(t.traceUid()) || find(ns, t.traceUid()).isPresent()) {
      throw new IllegalStateException("trace '" + t.traceUid() + "' already exists in " + ns);
    }
  }

  private void supersede(Namespace ns, String parentUid, PathwayTrace head) {
    Shelf s = shelf(ns);
    PathwayTrace parent = s.get(parentUid);
    s.put(
        parent.toBuilder()
            .supersededAt(Optional.of(head.createdAt()))
            .supersededByTraceUid(Optional.of(head.traceUid()))
            .build());
  }

  private void replayed(Namespace ns, String uid, boolean ok) {
    shelf(ns).replayed(uid, ok);
  }

  // ---------------------------------------------------------------- snapshots

  @Override
  public Iterable<String> capture() {
    return PathwayRecords.capture(policies, shelves);
  }

  @Override
  public void restore(String record, int version) {
    PathwayRecords.restore(
        SnapshotRecords.read(PathwayJson.MAPPER, NAME, record, version, 1), policies, this);
  }

  @Override
  public void clear() {
    shelves.clear();
    policies.clear();
  }
}
