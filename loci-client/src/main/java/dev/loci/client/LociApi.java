package dev.loci.client;

import dev.loci.ConflictException;
import dev.loci.InvalidRequestException;
import dev.loci.Namespace;
import dev.loci.NotFoundException;
import dev.loci.Page;
import dev.loci.StaleVersionException;
import dev.loci.Trace;
import dev.loci.TraceQuery;
import dev.loci.govern.Candidate;
import dev.loci.govern.ContextPack;
import dev.loci.govern.Entity;
import dev.loci.govern.EntityDraft;
import dev.loci.govern.EntityStatus;
import dev.loci.govern.EntityType;
import dev.loci.govern.EntityWritten;
import dev.loci.govern.Memory;
import dev.loci.govern.MemoryDraft;
import dev.loci.govern.MemoryStatus;
import dev.loci.govern.MemoryType;
import dev.loci.govern.Written;
import dev.loci.recall.IngestReport;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.RecallQuery;
import dev.loci.recall.RecallResult;
import dev.loci.recall.RecordVersion;
import dev.loci.recall.spi.SourceDocument;
import java.util.List;
import java.util.Optional;

/**
 * The operations an agent framework needs from Loci, the same whether Loci runs in this JVM ({@link
 * EmbeddedLoci}) or on a server ({@link LociClient}): traces, the recall graph, and governed
 * memory.
 *
 * <p>Both implementations return the records of the embedded API ({@link Trace}, {@link
 * RecallResult} with its evidence paths, {@link Memory}, {@link ContextPack}) and throw its
 * exceptions ({@link InvalidRequestException} naming the field, {@link NotFoundException}, {@link
 * ConflictException}, {@link StaleVersionException}); a remote failure with no embedded
 * counterpart, such as a refused credential, is a {@link RemoteException}. Implementations are
 * thread-safe.
 */
public interface LociApi extends AutoCloseable {
  /**
   * Adds a trace with a fresh id.
   *
   * @param content one JSON value
   * @throws InvalidRequestException naming {@code content} or {@code tags}
   */
  Trace addTrace(Namespace ns, String content, List<String> tags);

  /**
   * Returns a trace, retired or not.
   *
   * @throws NotFoundException naming {@code uid}
   */
  Trace trace(Namespace ns, String uid);

  /**
   * Records a new version of a trace, only if it is still at {@code expectedVersion} and has no
   * revision yet.
   *
   * @throws StaleVersionException if it changed or was revised since that version
   */
  Trace reviseTrace(
      Namespace ns,
      String predecessorUid,
      String content,
      List<String> tags,
      String expectedVersion);

  /**
   * Hides a trace from search (it stays readable), only if it is still at {@code expectedVersion}.
   *
   * @throws StaleVersionException if it changed since that version
   */
  Trace retireTrace(Namespace ns, String uid, String expectedVersion);

  /** Searches traces; one page. */
  Page<Trace> searchTraces(TraceQuery query);

  /**
   * Ingests documents into the recall graph with the domain pack named {@code pack} (for example
   * {@code markdown:contract}), and embeds what was written.
   *
   * @throws InvalidRequestException naming {@code pack} or the offending document
   */
  List<IngestReport> ingest(Namespace ns, String pack, List<SourceDocument> documents);

  /** Writes a node of the recall graph; returns its new version. */
  RecordVersion<MemoryNode> putNode(Namespace ns, MemoryNode node);

  /**
   * Recalls: ranked items, each with its evidence path.
   *
   * @throws InvalidRequestException naming the offending member of the query
   */
  RecallResult recall(Namespace ns, RecallQuery query);

  /**
   * Proposes a governed memory: it becomes a candidate for review, never trusted on its own.
   *
   * @throws InvalidRequestException naming the offending field of the draft
   */
  Written propose(Namespace ns, MemoryDraft draft);

  /**
   * Makes a candidate trusted; needs a reviewer (on a server, a reviewer token).
   *
   * @throws NotFoundException naming {@code memory_id}
   */
  Written promote(Namespace ns, String memoryId);

  /**
   * Every version of a governed memory, newest first.
   *
   * @throws NotFoundException naming {@code memory_id}
   */
  List<Memory> memoryHistory(Namespace ns, String memoryId);

  /** Governed memories of {@code ns}, filtered by type and status when given. */
  List<Memory> memories(Namespace ns, Optional<MemoryType> type, Optional<MemoryStatus> status);

  /**
   * Proposes a governed entity (a requirement, constraint, decision, fact, parameter or subsystem):
   * a candidate for review, or the same entity reinforced with the new sources.
   *
   * @throws InvalidRequestException naming the offending field of the draft
   */
  EntityWritten proposeEntity(Namespace ns, EntityDraft draft);

  /**
   * Every version of a governed entity, newest first.
   *
   * @throws NotFoundException naming {@code entity_id}
   */
  List<Entity> entityHistory(Namespace ns, String entityId);

  /** Governed entities of {@code ns}, filtered by type and status when given. */
  List<Entity> entities(Namespace ns, Optional<EntityType> type, Optional<EntityStatus> status);

  /**
   * The one review queue: memory and entity candidates side by side, grouped by source, each with
   * the rule that fired.
   */
  List<Candidate> candidates(Namespace ns);

  /**
   * Promotes candidate {@code id} of the queue, memory or entity; needs a reviewer (on a server, a
   * reviewer token).
   *
   * @return the record as it is now (no longer a candidate), either kind
   * @throws NotFoundException naming the id if neither kind has it
   */
  Candidate promoteCandidate(Namespace ns, String id);

  /**
   * Rejects candidate {@code id} of the queue, memory or entity, with a reason; needs a reviewer.
   *
   * @return the record as it is now (invalid), either kind
   * @throws InvalidRequestException naming {@code reason} if it is blank
   */
  Candidate rejectCandidate(Namespace ns, String id, String reason);

  /**
   * The context pack for {@code prompt}: trusted state and memories within {@code budgetTokens}.
   *
   * @throws InvalidRequestException naming {@code prompt} or {@code budget_tokens}
   */
  ContextPack context(Namespace ns, String prompt, int budgetTokens);

  /** Releases what this instance holds (an embedded instance it was told to own, connections). */
  @Override
  void close();
}
