package dev.loci.client;

import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.Page;
import dev.loci.Trace;
import dev.loci.TraceQuery;
import dev.loci.govern.Candidate;
import dev.loci.govern.ContextPack;
import dev.loci.govern.Entity;
import dev.loci.govern.EntityDraft;
import dev.loci.govern.EntityStatus;
import dev.loci.govern.EntityType;
import dev.loci.govern.EntityWritten;
import dev.loci.govern.GovernedEntities;
import dev.loci.govern.GovernedMemory;
import dev.loci.govern.Memory;
import dev.loci.govern.MemoryDraft;
import dev.loci.govern.MemoryStatus;
import dev.loci.govern.MemoryType;
import dev.loci.govern.Reviewer;
import dev.loci.govern.Written;
import dev.loci.recall.DomainPacks;
import dev.loci.recall.HashingEmbeddingProvider;
import dev.loci.recall.IngestReport;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.RecallQuery;
import dev.loci.recall.RecallResult;
import dev.loci.recall.RecordVersion;
import dev.loci.recall.spi.EmbeddingProvider;
import dev.loci.recall.spi.SourceDocument;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@link LociApi} over an instance in this JVM: every call goes straight to the layer facades
 * ({@link dev.loci.Traces}, {@link RecallMemory}, {@link GovernedMemory}), with nothing in between,
 * so it behaves exactly as the server behind a {@link LociClient} does. Promotions are made as the
 * instance's actor ({@link Loci#actor()}). Thread-safe.
 */
public final class EmbeddedLoci implements LociApi {
  private final Loci loci;
  private final boolean owned;
  private final RecallMemory recall;
  private final GovernedMemory governed;
  private final GovernedEntities entities;

  private EmbeddedLoci(Loci loci, EmbeddingProvider embeddings, boolean owned) {
    this.loci = Objects.requireNonNull(loci, "loci");
    this.owned = owned;
    this.recall = RecallMemory.of(loci, embeddings);
    this.governed = GovernedMemory.of(loci);
    this.entities = GovernedEntities.of(loci);
  }

  /**
   * The API over {@code loci}, embedding with {@link HashingEmbeddingProvider} (as {@code loci
   * serve} does unless told otherwise); closing it leaves {@code loci} open.
   */
  public static EmbeddedLoci of(Loci loci) {
    return of(loci, HashingEmbeddingProvider.create());
  }

  /** The API over {@code loci}, embedding with {@code embeddings}; closing it leaves loci open. */
  public static EmbeddedLoci of(Loci loci, EmbeddingProvider embeddings) {
    return new EmbeddedLoci(loci, embeddings, false);
  }

  /**
   * Opens {@code dataDir} (creating it if missing) and returns the API over it; closing the API
   * closes the instance.
   *
   * @throws dev.loci.StorageException if the directory is locked by another instance
   */
  public static EmbeddedLoci open(Path dataDir) {
    Loci loci = Loci.open(dataDir);
    try {
      return new EmbeddedLoci(loci, HashingEmbeddingProvider.create(), true);
    } catch (RuntimeException e) {
      try {
        loci.close();
      } catch (RuntimeException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
  }

  /** The instance calls go to. */
  public Loci loci() {
    return loci;
  }

  @Override
  public Trace addTrace(Namespace ns, String content, List<String> tags) {
    return loci.traces().add(ns, content, tags);
  }

  @Override
  public Trace trace(Namespace ns, String uid) {
    return loci.traces().get(ns, uid);
  }

  @Override
  public Trace reviseTrace(
      Namespace ns,
      String predecessorUid,
      String content,
      List<String> tags,
      String expectedVersion) {
    return loci.traces().revise(ns, predecessorUid, content, tags, expectedVersion);
  }

  @Override
  public Trace retireTrace(Namespace ns, String uid, String expectedVersion) {
    return loci.traces().retire(ns, uid, expectedVersion);
  }

  @Override
  public Page<Trace> searchTraces(TraceQuery query) {
    return loci.traces().search(query);
  }

  @Override
  public List<IngestReport> ingest(Namespace ns, String pack, List<SourceDocument> documents) {
    List<IngestReport> reports =
        recall.ingest(
            NamespaceScope.exactly(ns),
            DomainPacks.named(pack),
            documents,
            RecallMemory.Progress.NONE);
    reports.stream()
        .flatMap(r -> r.namespaces().stream())
        .distinct()
        .forEach(n -> recall.embed(n, RecallMemory.Progress.NONE));
    return reports;
  }

  @Override
  public RecordVersion<MemoryNode> putNode(Namespace ns, MemoryNode node) {
    return recall.putNode(ns, node);
  }

  @Override
  public RecallResult recall(Namespace ns, RecallQuery query) {
    return recall.recall(ns, query);
  }

  @Override
  public Written propose(Namespace ns, MemoryDraft draft) {
    return governed.propose(ns, draft);
  }

  @Override
  public Written promote(Namespace ns, String memoryId) {
    return governed.promote(ns, memoryId, new Reviewer(loci.actor()));
  }

  @Override
  public List<Memory> memoryHistory(Namespace ns, String memoryId) {
    return governed.history(ns, memoryId);
  }

  @Override
  public List<Memory> memories(
      Namespace ns, Optional<MemoryType> type, Optional<MemoryStatus> status) {
    return governed.list(ns, type, status);
  }

  @Override
  public EntityWritten proposeEntity(Namespace ns, EntityDraft draft) {
    return entities.propose(ns, draft);
  }

  @Override
  public List<Entity> entityHistory(Namespace ns, String entityId) {
    return entities.history(ns, entityId);
  }

  @Override
  public List<Entity> entities(
      Namespace ns, Optional<EntityType> type, Optional<EntityStatus> status) {
    return entities.list(ns, type, status);
  }

  @Override
  public List<Candidate> candidates(Namespace ns) {
    return governed.queue(ns);
  }

  @Override
  public Candidate promoteCandidate(Namespace ns, String id) {
    return record(governed.promoteCandidate(ns, id, new Reviewer(loci.actor())));
  }

  @Override
  public Candidate rejectCandidate(Namespace ns, String id, String reason) {
    return record(governed.rejectCandidate(ns, id, reason, new Reviewer(loci.actor())));
  }

  /** A queue decision's result as the record it left, either kind. */
  private static Candidate record(Object decided) {
    if (decided instanceof Written w) {
      return Candidate.of(w.memory());
    }
    if (decided instanceof EntityWritten w) {
      return Candidate.of(w.entity());
    }
    if (decided instanceof Entity e) {
      return Candidate.of(e);
    }
    return Candidate.of((Memory) decided);
  }

  @Override
  public ContextPack context(Namespace ns, String prompt, int budgetTokens) {
    return governed.context(ns, prompt, budgetTokens);
  }

  /** Closes the instance if this API opened it ({@link #open}); otherwise nothing. */
  @Override
  public void close() {
    if (owned) {
      loci.close();
    }
  }
}
