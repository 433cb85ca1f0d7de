package dev.loci.subjects.internal;

import dev.loci.StorageException;
import dev.loci.spi.JournalEntry;
import dev.loci.subjects.internal.SubjectIndex.Subject;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The subject layer's audit logs: the {@link AuditWriter} and {@link AuditKeys} of its data
 * directory, the entry each change to a subject notes, and the writer's holds, checkpoints and
 * close. A layer without a data directory (in memory) has neither: it only counts each subject's
 * entries, and every other call does nothing.
 *
 * <p>{@link #attach} runs before the layer is used; the writer is thread-safe ({@link
 * AuditWriter}).
 */
final class SubjectAudit {
  private static final System.Logger LOG = System.getLogger(SubjectLayer.class.getName());

  private AuditWriter audit;
  private AuditKeys keys;

  /**
   * Opens the key file and the audit logs of data directory {@code dir}; the writer runs {@code
   * beforeFlush} (the index's catch-up) before it writes queued entries.
   */
  void attach(Path dir, Runnable beforeFlush) {
    this.keys = AuditKeys.open(SubjectLayer.keyFile(dir));
    this.audit = new AuditWriter(new AuditLog(SubjectLayer.auditDir(dir), keys), beforeFlush);
  }

  /** Whether the layer has audit logs (a data directory). */
  boolean attached() {
    return audit != null;
  }

  /** Counts one more audit entry of {@code s}, and queues it if the layer has audit logs. */
  void note(
      Subject s,
      JournalEntry entry,
      String actor,
      String action,
      List<AuditEntry.Touched> records) {
    s.auditEntries++;
    if (audit == null) {
      return;
    }
    audit.add(
        new AuditEntry(
            s.ref,
            s.auditEntries,
            entry.seq(),
            entry.ts(),
            actor,
            entry.namespace().value(),
            action,
            records));
  }

  /** See {@link SubjectLayer#writeAudit()}. */
  void flush() {
    if (audit != null) {
      audit.flush();
    }
  }

  /** Asks the writer's thread to write the queued entries soon. */
  void flushSoon() {
    audit.flushSoon();
  }

  /** See {@link SubjectLayer#checkpointAudit()}. */
  void checkpoint() {
    if (audit != null) {
      try {
        audit.checkpoint();
      } catch (IOException e) {
        throw new StorageException("cannot force the audit logs: " + e.getMessage(), e);
      }
    }
  }

  /** See {@link SubjectLayer#holdAudit()}. */
  void hold() {
    if (audit != null) {
      audit.hold();
      audit.flush();
      try {
        audit.materialize();
      } catch (IOException e) {
        audit.release();
        throw new StorageException("cannot write the audit logs: " + e.getMessage(), e);
      }
    }
  }

  /** Ends {@link #hold}. */
  void release() {
    if (audit != null) {
      audit.release();
    }
  }

  /** Rotates the audit key: a new key signs from now on, each chain records the rotation. */
  String[] rotateKey() throws IOException {
    return audit.rotate(keys);
  }

  /** Forces the written entries to disk, as a snapshot needs. */
  void force() {
    if (audit != null) {
      try {
        audit.force(); // the snapshot ends replay of these batches: their entries must be on disk
      } catch (IOException e) {
        throw new StorageException("cannot force the audit logs: " + e.getMessage(), e);
      }
    }
  }

  /** Drops the queued entries, as the layer's {@code clear} does. */
  void clear() {
    if (audit != null) {
      audit.clear();
    }
  }

  /** Checkpoints the logs if anything was applied ({@code appliedSeq >= 0}), then closes them. */
  void close(long appliedSeq) {
    if (audit != null) {
      if (appliedSeq >= 0) {
        try {
          audit.checkpoint();
        } catch (IOException e) {
          LOG.log(System.Logger.Level.WARNING, "cannot force the audit logs: " + e.getMessage());
        }
      }
      audit.close();
    }
  }
}
