package dev.loci.govern;

import dev.loci.InvalidRequestException;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.govern.internal.ConflictDecisions;
import dev.loci.govern.internal.ContextBuilder;
import dev.loci.govern.internal.EntityDecisions;
import dev.loci.govern.internal.ExtractionDecisions;
import dev.loci.govern.internal.GovernLayer;
import dev.loci.govern.internal.MemoryDecisions;
import dev.loci.govern.internal.RuleExtractor;
import dev.loci.govern.spi.ExtractionTarget;
import dev.loci.govern.spi.Extractor;
import dev.loci.spi.CommandExecutor;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Governed memory: what an agent proposes becomes a candidate, a person decides what becomes
 * trusted, contradictions are flagged and never silently resolved, and the context an agent gets is
 * assembled in trust order within a budget.
 *
 * <p>Writes by agents and extractors ({@link #propose}, {@link #reinforce}) never need a {@link
 * Reviewer}; everything that makes a record trusted or untrusted does ({@link #promote}, {@link
 * #reject}, {@link #add}, {@link #invalidate}, {@link #supersede}, {@link #resolve}, {@link
 * #dismiss}, {@link #setState}, {@link #deleteState}), and its holder is recorded. Every write is a
 * journal batch: validated, durable, then applied; a rejected write throws and changes nothing.
 * Thread-safe; returned records are immutable.
 */
public final class GovernedMemory {
  /** The most tokens a context pack may be asked for. */
  public static final int MAX_BUDGET = 200_000;

  /** The most memories a context pack's retrieved slot considers, best first. */
  static final int RETRIEVED_CANDIDATES = 256;

  /** The most entities a context pack's entity slot considers, best first. */
  static final int ENTITY_CANDIDATES = 64;

  private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_.:-]{1,128}");

  /**
   * The namespace setting that stops new project and adaptation memories once entities are used.
   */
  public static final String ENTITIES_CANONICAL = MemoryDecisions.ENTITIES_CANONICAL;

  /** The namespace setting naming what an ingest extracts by itself ({@link #extractOnIngest}). */
  public static final String EXTRACT_ON_INGEST = "extract_on_ingest";

  /** The value of {@value #EXTRACT_ON_INGEST} that extracts nothing: the default. */
  public static final String OFF = "off";

  private final CommandExecutor engine;
  private final GovernLayer layer;
  private final MemoryDecisions memories;
  private final ConflictDecisions conflicts;
  private final EntityDecisions entities;
  private final ExtractionDecisions extraction;
  private final Extractor extractor;
  private final Path dataDir;
  private final String actor;

  private GovernedMemory(
      CommandExecutor engine, GovernLayer layer, Path dataDir, String actor, Extractor extractor) {
    this.engine = engine;
    this.layer = layer;
    this.conflicts = new ConflictDecisions(layer);
    this.entities = new EntityDecisions(layer, conflicts);
    this.memories = new MemoryDecisions(layer, conflicts, entities);
    this.extraction = new ExtractionDecisions(layer, memories, entities);
    this.dataDir = dataDir;
    this.actor = actor;
    this.extractor = extractor;
  }

  /**
   * The governed memory of an open instance. If the instance has the recall layer, every write also
   * puts the recall nodes of the records it changed in the same journal batch ({@link
   * GovernedRecall}).
   *
   * @throws IllegalStateException if the instance was opened without the governed layer
   */
  public static GovernedMemory of(Loci loci) {
    return new GovernedMemory(
        RecallFeed.of(loci),
        loci.layer(GovernLayer.class),
        loci.dataDir(),
        loci.actor(),
        new RuleExtractor());
  }

  /** The same memory, extracting with {@code extractor} instead of the rule-based one. */
  public GovernedMemory withExtractor(Extractor extractor) {
    Objects.requireNonNull(extractor, "extractor");
    return new GovernedMemory(engine, layer, dataDir, actor, extractor);
  }

  /** The same memory, recording {@code actor} as the author of its writes in the journal. */
  public GovernedMemory as(String actor) {
    Objects.requireNonNull(actor, "actor");
    if (actor.isBlank()) {
      throw new IllegalArgumentException("actor must not be blank");
    }
    return new GovernedMemory(engine, layer, dataDir, actor, extractor);
  }

  // ---------------------------------------------------------------- memories

  /**
   * Proposes a memory: a new candidate in the review queue, or, if the same fact (type, content,
   * subjects) is already a candidate or active, that memory reinforced instead of stored twice.
   */
  public Written propose(Namespace ns, MemoryDraft draft) {
    Objects.requireNonNull(draft, "draft");
    return engine.execute(ns, actor, ctx -> memories.decidePropose(ctx, ns, draft));
  }

  /**
   * Writes a memory active at once, as a reviewer may: the write succeeds even if it contradicts an
   * active memory or trusted state of its slot, and the conflict it opens is in the result.
   */
  public Written add(Namespace ns, MemoryDraft draft, Reviewer reviewer) {
    Objects.requireNonNull(draft, "draft");
    String holder = holder(reviewer);
    return engine.execute(ns, actor, ctx -> memories.decideAddActive(ctx, ns, draft, holder));
  }

  /**
   * The same fact seen again: one more reinforcement and a higher confidence.
   *
   * @throws dev.loci.NotFoundException naming {@code id}
   * @throws InvalidRequestException naming {@code status} unless a candidate or active
   */
  public Memory reinforce(Namespace ns, String id) {
    return engine.execute(ns, actor, ctx -> memories.decideReinforce(ctx, ns, id)).memory();
  }

  /**
   * Graduates an active {@code knowledge}, {@code project} or {@code adaptation} memory on request:
   * an entity candidate structured from its content waits in the review queue, and the memory
   * becomes {@code graduated} with a forward pointer to it ({@link Memory#graduatedTo()}).
   *
   * @throws InvalidRequestException naming {@code type} or {@code status}
   */
  public Memory graduate(Namespace ns, String id) {
    return engine.execute(ns, actor, ctx -> memories.decideGraduate(ctx, ns, id)).memory();
  }

  /**
   * Promotes a candidate to active; a conflict its slot opens is in the result.
   *
   * @throws InvalidRequestException naming {@code status} unless it is a candidate
   */
  public Written promote(Namespace ns, String id, Reviewer reviewer) {
    String holder = holder(reviewer);
    return engine.execute(ns, actor, ctx -> memories.decidePromote(ctx, ns, id, holder));
  }

  /**
   * Rejects a candidate: it becomes invalid with the reason, and stays as history.
   *
   * @throws InvalidRequestException naming {@code reason} if blank, {@code status} unless a
   *     candidate
   */
  public Memory reject(Namespace ns, String id, String reason, Reviewer reviewer) {
    String holder = holder(reviewer);
    return engine.execute(
        ns, actor, ctx -> memories.decideInvalidate(ctx, ns, id, reason, holder, true));
  }

  /** Invalidates a candidate or active memory, with a reason; it stays as history. */
  public Memory invalidate(Namespace ns, String id, String reason, Reviewer reviewer) {
    String holder = holder(reviewer);
    return engine.execute(
        ns, actor, ctx -> memories.decideInvalidate(ctx, ns, id, reason, holder, false));
  }

  /**
   * Supersedes active memory {@code id} by memory {@code by} (promoted if it is a candidate).
   *
   * @throws InvalidRequestException naming {@code status} or {@code by}
   */
  public Written supersede(Namespace ns, String id, String by, Reviewer reviewer) {
    String holder = holder(reviewer);
    return engine.execute(ns, actor, ctx -> memories.decideSupersede(ctx, ns, id, by, holder));
  }

  /**
   * The newest version of memory {@code id}.
   *
   * @throws dev.loci.NotFoundException naming {@code id}
   */
  public Memory get(Namespace ns, String id) {
    return engine.read(() -> layer.require(ns, id));
  }

  /**
   * Every version of memory {@code id}, newest first. A memory's content never changes across its
   * versions (a new fact is a new memory that supersedes it): the versions record its status,
   * confidence and reinforcements over time, so reading them needs no legal capability.
   */
  public List<Memory> history(Namespace ns, String id) {
    return engine.read(() -> layer.history(ns, id));
  }

  /** The memories of {@code ns} of a type and status if given, in the order first proposed. */
  public List<Memory> list(Namespace ns, Optional<MemoryType> type, Optional<MemoryStatus> status) {
    return engine.read(
        () ->
            layer.memories(ns).stream()
                .filter(m -> type.isEmpty() || m.type() == type.get())
                .filter(m -> status.isEmpty() || m.status() == status.get())
                .toList());
  }

  /**
   * The review queue: every candidate of {@code ns}, grouped by source (interaction, chunk, then
   * actor), oldest first within a group.
   */
  public List<Memory> candidates(Namespace ns) {
    return list(ns, Optional.empty(), Optional.of(MemoryStatus.CANDIDATE)).stream()
        .sorted(Comparator.comparing((Memory m) -> source(m)).thenComparing(Memory::createdAt))
        .toList();
  }

  private static String source(Memory m) {
    return Candidate.of(m).source();
  }

  /**
   * The one review queue: memory and entity candidates side by side, grouped by source
   * (interaction, chunk, then actor), oldest first within a group; each names the rule that fired.
   */
  public List<Candidate> queue(Namespace ns) {
    return engine.read(
        () -> {
          List<Candidate> all = new java.util.ArrayList<>();
          layer.memories(ns).stream()
              .filter(m -> m.status() == MemoryStatus.CANDIDATE)
              .forEach(m -> all.add(Candidate.of(m)));
          layer.entities(ns).stream()
              .filter(e -> e.status() == EntityStatus.CANDIDATE)
              .forEach(e -> all.add(Candidate.of(e)));
          all.sort(
              Comparator.comparing(Candidate::source)
                  .thenComparing(Candidate::createdAt)
                  .thenComparing(Candidate::id));
          return all;
        });
  }

  /**
   * Promotes candidate {@code id} of the queue, memory or entity: one verb for both kinds.
   *
   * @return the promoted record's write: a {@link Written} or an {@link EntityWritten}
   * @throws dev.loci.NotFoundException naming {@code id} if neither kind has it
   */
  public Object promoteCandidate(Namespace ns, String id, Reviewer reviewer) {
    if (isEntity(ns, id)) {
      String holder = holder(reviewer);
      return engine.execute(ns, actor, ctx -> entities.decidePromote(ctx, ns, id, holder));
    }
    return promote(ns, id, reviewer);
  }

  /** Rejects candidate {@code id} of the queue, memory or entity, with a reason. */
  public Object rejectCandidate(Namespace ns, String id, String reason, Reviewer reviewer) {
    if (isEntity(ns, id)) {
      String holder = holder(reviewer);
      return engine.execute(
          ns, actor, ctx -> entities.decideInvalidate(ctx, ns, id, reason, holder, true));
    }
    return reject(ns, id, reason, reviewer);
  }

  private boolean isEntity(Namespace ns, String id) {
    return engine.read(() -> layer.hasEntity(ns, id));
  }

  // ---------------------------------------------------------------- capture and extraction

  /**
   * Captures an interaction and extracts from it: memory and entity candidates per {@code target},
   * each with its rule, the interaction, and the extractor's version; at most {@value
   * Extraction#CAP}. Nothing is promoted.
   *
   * @throws InvalidRequestException naming {@code text} or {@code speaker}
   */
  public Extraction capture(
      Namespace ns,
      String text,
      String speaker,
      Optional<java.time.Instant> said,
      ExtractionTarget target) {
    return capture(ns, text, speaker, said, List.of(), target);
  }

  /**
   * {@link #capture(Namespace, String, String, Optional, ExtractionTarget)} of an exchange about
   * the data subjects {@code subjectIds}: the interaction and the memory candidates extracted from
   * it name them (subject manifests list them, erasure erases them).
   *
   * @throws InvalidRequestException naming {@code text}, {@code speaker} or {@code subject_ids}
   */
  public Extraction capture(
      Namespace ns,
      String text,
      String speaker,
      Optional<java.time.Instant> said,
      List<String> subjectIds,
      ExtractionTarget target) {
    Interaction.check(text, speaker);
    List<String> subjects = dev.loci.SubjectIds.check("subject_ids", subjectIds);
    Objects.requireNonNull(target, "target");
    return engine.execute(
        ns,
        actor,
        ctx ->
            extraction.decideCapture(
                ctx, ns, text, speaker, said, subjects, actor, target, extractor));
  }

  /** Runs extraction again over captured interaction {@code id} (an explicit request). */
  public Extraction extract(Namespace ns, String id, ExtractionTarget target) {
    Objects.requireNonNull(target, "target");
    return engine.execute(
        ns, actor, ctx -> extraction.decideExtract(ctx, ns, id, actor, target, extractor));
  }

  /** Interaction {@code id}. */
  public Interaction interaction(Namespace ns, String id) {
    return engine.read(() -> layer.requireInteraction(ns, id));
  }

  /**
   * Extracts from the chunks of one ingestion wave in one pass (at most {@value Extraction#CAP}
   * candidates), then writes the wave's report to {@code extraction-reports/<wave>/report.json}
   * under the data directory: the chunks read, the candidates with their rules, the graduations and
   * what the cap left out.
   *
   * @throws InvalidRequestException naming {@code chunks}
   */
  public Extraction extractWave(
      Namespace ns, List<ExtractionChunk> chunks, ExtractionTarget target) {
    List<ExtractionChunk> copy = List.copyOf(chunks);
    Objects.requireNonNull(target, "target");
    Extraction x =
        engine.execute(
            ns, actor, ctx -> extraction.decideWave(ctx, ns, copy, actor, target, extractor));
    WaveReports.write(dataDir, ns, copy, x);
    return x;
  }

  // ---------------------------------------------------------------- settings

  /**
   * The governance settings of {@code ns}, by name ({@value #ENTITIES_CANONICAL}, {@value
   * #EXTRACT_ON_INGEST}); a setting never set is absent.
   */
  public Map<String, String> settings(Namespace ns) {
    return engine.read(() -> layer.settings(ns));
  }

  /**
   * What an ingest into {@code ns} extracts by itself, as one ingestion wave over the ingested
   * documents' chunks: the target its {@value #EXTRACT_ON_INGEST} setting names, or nothing (the
   * default, and the setting {@code off}).
   */
  public Optional<ExtractionTarget> extractOnIngest(Namespace ns) {
    return ingestTarget(settings(ns).getOrDefault(EXTRACT_ON_INGEST, OFF), EXTRACT_ON_INGEST);
  }

  /**
   * Parses a value of {@value #EXTRACT_ON_INGEST}: {@code off} (nothing) or a target.
   *
   * @throws InvalidRequestException naming {@code field} unless off, memory, entities or both
   */
  public static Optional<ExtractionTarget> ingestTarget(String text, String field) {
    if (OFF.equals(text)) {
      return Optional.empty();
    }
    try {
      return Optional.of(ExtractionTarget.of(text, field));
    } catch (InvalidRequestException e) {
      throw new InvalidRequestException(
          field, "expected off, memory, entities or both, found '" + text + "'");
    }
  }

  /**
   * Sets a governance setting of {@code ns}; only a reviewer may. {@value #ENTITIES_CANONICAL}
   * ({@code true} or {@code false}, off by default) refuses new {@code project} and {@code
   * adaptation} memories once the namespace has an active entity; {@value #EXTRACT_ON_INGEST}
   * ({@code off}, the default, or {@code memory}, {@code entities}, {@code both}) makes every
   * ingest into the namespace run an ingestion wave over what it ingested.
   *
   * @throws InvalidRequestException naming {@code name} or {@code value}
   */
  public Map<String, String> setSetting(
      Namespace ns, String name, String value, Reviewer reviewer) {
    if (ENTITIES_CANONICAL.equals(name)) {
      if (!"true".equals(value) && !"false".equals(value)) {
        throw new InvalidRequestException("value", "expected true or false, found '" + value + "'");
      }
    } else if (EXTRACT_ON_INGEST.equals(name)) {
      ingestTarget(value, "value");
    } else {
      throw new InvalidRequestException(
          "name",
          "expected the setting "
              + ENTITIES_CANONICAL
              + " or "
              + EXTRACT_ON_INGEST
              + ", found '"
              + name
              + "'");
    }
    holder(reviewer);
    engine.execute(
        ns,
        actor,
        ctx ->
            new dev.loci.spi.Decision<>(
                List.of(GovernLayer.settingEvent(name, value)), Set.of("settings"), value));
    return settings(ns);
  }

  // ---------------------------------------------------------------- conflicts

  /** The conflicts of {@code ns} with a status if given, in the order opened. */
  public List<Conflict> conflicts(Namespace ns, Optional<Conflict.Status> status) {
    return engine.read(
        () ->
            layer.conflicts(ns).stream()
                .filter(c -> status.isEmpty() || c.status() == status.get())
                .toList());
  }

  /** Open conflicts in every namespace (the server's {@code open_conflicts_count}). */
  public long openConflicts() {
    return engine.read(layer::openConflicts);
  }

  /**
   * Resolves an open conflict: {@code winner} stays, the other members are superseded by it (and
   * trusted state that lost takes the winner's content).
   *
   * @throws InvalidRequestException naming {@code winner} if it is no member, {@code status} if the
   *     conflict is closed
   */
  public Conflict resolve(Namespace ns, String conflictId, String winner, Reviewer reviewer) {
    String holder = holder(reviewer);
    return engine.execute(
        ns, actor, ctx -> conflicts.decideResolve(ctx, ns, conflictId, winner, holder));
  }

  /** Dismisses an open conflict as no real conflict; every member stays as it is. */
  public Conflict dismiss(Namespace ns, String conflictId, Reviewer reviewer) {
    String holder = holder(reviewer);
    return engine.execute(ns, actor, ctx -> conflicts.decideDismiss(ctx, ns, conflictId, holder));
  }

  /**
   * Opens a conflict for every slot of {@code ns} whose active memories disagree and that has none
   * open; returns the conflicts it opened.
   */
  public List<Conflict> sweep(Namespace ns) {
    return engine.execute(ns, actor, ctx -> conflicts.decideSweep(ctx, ns));
  }

  /** Every namespace with governed records. */
  public List<Namespace> namespaces() {
    return engine.read(layer::namespaces);
  }

  /**
   * Sweeps every namespace with governed records (what {@code loci serve} runs on a schedule);
   * returns the conflicts opened.
   */
  public List<Conflict> sweepAll() {
    List<Conflict> opened = new java.util.ArrayList<>();
    for (Namespace ns : namespaces()) {
      opened.addAll(sweep(ns));
    }
    return opened;
  }

  // ---------------------------------------------------------------- trusted project state

  /** Trusted project state of {@code ns}, in key order. */
  public Map<String, StateEntry> state(Namespace ns) {
    return engine.read(() -> layer.state(ns));
  }

  /** One key of trusted project state. */
  public Optional<StateEntry> state(Namespace ns, String key) {
    return Optional.ofNullable(state(ns).get(key));
  }

  /**
   * Sets a key of trusted project state; only a reviewer may. An active memory whose slot is the
   * key and that says otherwise opens a conflict (the write still succeeds).
   *
   * @throws InvalidRequestException naming {@code key} or {@code value}
   */
  public StateEntry setState(Namespace ns, String key, String value, Reviewer reviewer) {
    checkKey(key);
    if (value == null || value.isBlank() || value.length() > MemoryDraft.MAX_CONTENT) {
      throw new InvalidRequestException(
          "value", "expected 1 to " + MemoryDraft.MAX_CONTENT + " characters");
    }
    String holder = holder(reviewer);
    return engine.execute(ns, actor, ctx -> memories.decideStateSet(ctx, ns, key, value, holder));
  }

  /** Deletes a key of trusted project state; only a reviewer may. */
  public StateEntry deleteState(Namespace ns, String key, Reviewer reviewer) {
    checkKey(key);
    holder(reviewer);
    return engine.execute(ns, actor, ctx -> memories.decideStateDelete(ctx, ns, key));
  }

  // ---------------------------------------------------------------- context

  /**
   * The context pack for {@code prompt}: trusted project state, identity and preference memories,
   * entities, then the active memories most relevant to the prompt, in that trust order, each item
   * with its provenance and token count; the sum never exceeds {@code budgetTokens}, and no
   * candidate, superseded, invalid or graduated memory is ever in it.
   *
   * @throws InvalidRequestException naming {@code prompt} or {@code budget_tokens}
   */
  public ContextPack context(Namespace ns, String prompt, int budgetTokens) {
    if (prompt == null || prompt.isBlank()) {
      throw new InvalidRequestException("prompt", "expected the prompt to build context for");
    }
    if (budgetTokens < 1 || budgetTokens > MAX_BUDGET) {
      throw new InvalidRequestException(
          "budget_tokens", "expected 1 to " + MAX_BUDGET + ", found " + budgetTokens);
    }
    Set<String> words = GovernLayer.words(prompt);
    return engine.read(
        () ->
            ContextBuilder.build(
                budgetTokens,
                layer.stateByKey(ns),
                layer.activeByTrust(ns, MemoryType.IDENTITY),
                layer.activeByTrust(ns, MemoryType.PREFERENCE),
                layer.activeEntitiesMatching(ns, words, ENTITY_CANDIDATES),
                layer.activeMatching(ns, words, RETRIEVED_CANDIDATES),
                layer.overruled(ns),
                layer.tokens(ns)));
  }

  private static String holder(Reviewer reviewer) {
    return Objects.requireNonNull(reviewer, "this act requires a reviewer").holder();
  }

  private static void checkKey(String key) {
    if (key == null || !KEY.matcher(key).matches()) {
      throw new InvalidRequestException(
          "key", "expected 1-128 characters of [A-Za-z0-9_.:-], found '" + key + "'");
    }
  }
}
