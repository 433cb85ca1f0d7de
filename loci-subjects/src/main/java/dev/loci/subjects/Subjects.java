package dev.loci.subjects;

import dev.loci.InvalidRequestException;
import dev.loci.LegalCapability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.StorageException;
import dev.loci.spi.CommandExecutor;
import dev.loci.subjects.internal.SubjectAccess;
import dev.loci.subjects.internal.SubjectLayer;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Subjects and their audit trail: the facade of the subject layer.
 *
 * <p>A data subject (a person) is named by a caller-chosen id in the {@code subject_ids} of the
 * records about them: pathway traces and governed memories have the field, and a trace names
 * subjects by a top-level {@code subject_ids} array of strings in its JSON content. The subject
 * index maps each subject to every record and version that names it, in every layer; {@link
 * #manifest} answers what is held about the subject.
 *
 * <p><b>Audit.</b> Every write that touches a subject's records, every read of their versions under
 * the legal capability, every export of the audit log, policy change and erasure appends an entry
 * to that subject's audit log: a JSON Lines file under {@code <data>/subjects/audit/}, each entry
 * chained to the one before by HMAC-SHA256 under a key kept apart in {@code <data>/keys/} ({@link
 * #verifyAudit} recomputes the chains; {@link #rotateAuditKey} starts a new key and records it in
 * every chain).
 *
 * <p><b>Erasure</b> ({@link #erase}) is a rewrite, not a key deletion: with writes stopped, every
 * journal batch that wrote one of the subject's records is rewritten with the record's content
 * replaced by an erased placeholder (ids, version chains and links kept, so every other record
 * keeps its history and replay still applies), each segment to a temporary file that is forced and
 * renamed over it; every layer then erases the records from its state and files, and every snapshot
 * is replaced by a fresh one. A durable intent file makes it crash-safe: an erasure cut short is
 * run to the end when the directory is next opened. The subject's manifest keeps only the fact and
 * time of the erasure. Subject ids themselves are never stored by this layer (it keys subjects by
 * the SHA-256 of the id), so after erasure no file holds the subject's id or content. A file system
 * may keep freed blocks; erasure makes no claim about the device below it. Over a PostgreSQL
 * journal that several servers share, one transaction rewrites the rows and records the erasure,
 * and every server erases the records from its own state, files and snapshots when it applies that
 * record (docs/cluster.md).
 *
 * <p><b>Retention</b>: a policy per namespace (inherited by descendants) and per subject sets how
 * many days after its last write a record is kept; a legal hold on the subject keeps its records
 * regardless. {@link #sweep} erases (as above) every subject record past its retention.
 *
 * <p><b>Verticals</b>: a subject or namespace marked with a vertical whose policy is local-only
 * ({@code healthcare}) never has its content sent off the machine: {@link Loci#egress} refuses
 * (checked today where recall would send content to an embedding model that declares itself
 * remote).
 *
 * <p>Reading manifests and policies needs no capability beyond the caller's own scope; everything
 * that returns audit entries, changes retention or erases takes a {@link LegalCapability} whose
 * holder is recorded. Thread-safe.
 */
public final class Subjects {
  private final Loci loci;
  private final CommandExecutor engine;
  private final SubjectLayer layer;

  private Subjects(Loci loci) {
    this.loci = loci;
    this.engine = loci.executor();
    this.layer = loci.layer(SubjectLayer.class);
  }

  /** The subjects facade of {@code loci}. */
  public static Subjects of(Loci loci) {
    return new Subjects(Objects.requireNonNull(loci, "loci"));
  }

  /**
   * Checks a subject id: 1-128 characters, no control characters.
   *
   * @throws InvalidRequestException naming {@code field}
   */
  public static String checkId(String id, String field) {
    if (id == null
        || id.isEmpty()
        || id.length() > 128
        || id.isBlank()
        || id.chars().anyMatch(Character::isISOControl)) {
      throw new InvalidRequestException(
          field, "expected a subject id of 1-128 characters without control characters");
    }
    return id;
  }

  /** What is held about subject {@code id} in the namespaces of {@code scope}. */
  public SubjectManifest manifest(String id, NamespaceScope scope) {
    checkId(id, "subject_id");
    return engine.read(() -> layer.manifest(id, scope));
  }

  /** What is held about subject {@code id} in every namespace. */
  public SubjectManifest manifest(String id) {
    checkId(id, "subject_id");
    return engine.read(() -> layer.manifest(id, ns -> true));
  }

  /**
   * Sets subject {@code id}'s policy (retention, legal hold, vertical, legal basis); recorded in
   * the subject's audit log with {@code legal}'s holder.
   */
  public SubjectPolicy setPolicy(
      LegalCapability legal, Namespace ns, String id, SubjectPolicy policy) {
    Objects.requireNonNull(legal, "legal");
    checkId(id, "subject_id");
    return engine.execute(
        ns, loci.actor(), ctx -> layer.decidePolicy(SubjectLayer.ref(id), policy, legal.holder()));
  }

  /**
   * Sets namespace {@code ns}'s policy, which its descendants inherit: retention and vertical
   * ({@code legal_hold} and {@code legal_basis} are per subject and refused here).
   */
  public SubjectPolicy setNamespacePolicy(LegalCapability legal, Namespace ns, SubjectPolicy p) {
    Objects.requireNonNull(legal, "legal");
    if (p.legalHold()) {
      throw new InvalidRequestException(
          "legal_hold", "expected a legal hold on a subject, not on a namespace");
    }
    if (p.legalBasis().isPresent()) {
      throw new InvalidRequestException(
          "legal_basis", "expected a legal basis on a subject, not on a namespace");
    }
    return engine.execute(
        ns, loci.actor(), ctx -> layer.decideNamespacePolicy(ns, p, legal.holder()));
  }

  /** The policy that applies in {@code ns}: its own or its nearest ancestor's. */
  public SubjectPolicy namespacePolicy(Namespace ns) {
    return engine.read(() -> layer.namespacePolicy(ns));
  }

  /**
   * Subject {@code id}'s audit log, one JSON text per entry, oldest first. The export itself is
   * recorded in the log first, with {@code legal}'s holder, and is its last entry.
   */
  public List<String> auditLog(LegalCapability legal, Namespace ns, String id) {
    Objects.requireNonNull(legal, "legal");
    checkId(id, "subject_id");
    String ref = SubjectLayer.ref(id);
    engine.execute(ns, loci.actor(), ctx -> layer.decideAuditExported(ref, legal.holder()));
    try {
      return SubjectAccess.lines(loci, ref);
    } catch (IOException e) {
      throw new StorageException("cannot read the audit log: " + e.getMessage(), e);
    }
  }

  /**
   * Recomputes the HMAC chain of subject {@code id}'s log, or of every log when empty, and checks
   * each holds every entry the journal accounts for.
   */
  public AuditVerification verifyAudit(Optional<String> id) {
    id.ifPresent(s -> checkId(s, "subject"));
    return SubjectAccess.verify(loci, layer, id.map(SubjectLayer::ref));
  }

  /** Starts a new audit key; every chain records the rotation. Returns the new key's id. */
  public String rotateAuditKey(LegalCapability legal) {
    Objects.requireNonNull(legal, "legal");
    return SubjectAccess.rotateKey(loci, layer);
  }

  /**
   * Erases subject {@code id}: every record in the namespaces of {@code scope} that names the
   * subject, in every version, everywhere Loci keeps data (see the class description). Runs with
   * every write stopped. Erasing a subject with no records records the erasure and changes nothing
   * else.
   *
   * @param reason why (the request's reference), recorded in the audit log; 1-512 characters
   * @throws InvalidRequestException naming {@code reason} or {@code subject_id}
   * @throws dev.loci.ConflictException if the subject is under a legal hold
   */
  public ErasureReport erase(
      LegalCapability legal, NamespaceScope scope, Namespace ns, String id, String reason) {
    Objects.requireNonNull(legal, "legal");
    checkId(id, "subject_id");
    if (reason == null || reason.isBlank() || reason.length() > 512) {
      throw new InvalidRequestException("reason", "expected why, in 1-512 characters");
    }
    return SubjectAccess.erase(loci, layer, scope, ns, id, legal.holder(), reason);
  }

  /**
   * Finds every subject record past its retention at {@code now} and, unless {@code dryRun}, erases
   * it. A legal hold on any subject a record names keeps it.
   */
  public SweepReport sweep(Instant now, boolean dryRun) {
    return SubjectAccess.sweep(loci, layer, Optional.empty(), now, dryRun);
  }

  /** {@link #sweep(Instant, boolean)} limited to the records in the namespaces of {@code scope}. */
  public SweepReport sweep(NamespaceScope scope, Instant now, boolean dryRun) {
    return SubjectAccess.sweep(loci, layer, Optional.of(scope), now, dryRun);
  }
}
