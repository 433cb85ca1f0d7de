package dev.loci;

import dev.loci.internal.AuditLayer;
import dev.loci.internal.Engine;
import java.util.List;
import java.util.Objects;

/**
 * The record of reads made under the legal-tier capability. Every facade that returns superseded
 * versions ({@code Traces.history}, pathway version chains and {@code include_history}, node and
 * edge history) records its read here, durably, before it returns them: who held the capability,
 * what was read, which records, when. Thread-safe.
 */
public final class LegalReads {
  private final Engine engine;
  private final AuditLayer layer;
  private final String actor;

  LegalReads(Engine engine, AuditLayer layer, String actor) {
    this.engine = engine;
    this.layer = layer;
    this.actor = actor;
  }

  /**
   * Records, durably, that {@code legal}'s holder read the versions of {@code records} in {@code
   * ns}. Call before handing the versions out: if recording fails, nothing may be returned.
   *
   * @param action what was read, for example {@code trace.history}
   * @throws StorageException if the record cannot be written
   */
  public LegalRead record(
      Namespace ns, LegalCapability legal, String action, List<String> records) {
    Objects.requireNonNull(ns, "ns");
    Objects.requireNonNull(legal, "legal");
    Objects.requireNonNull(action, "action");
    List<String> ids = List.copyOf(records);
    return engine.execute(
        ns,
        actor,
        ctx -> layer.decideLegalRead(new LegalRead(ctx.now(), ns, legal.holder(), action, ids)));
  }

  /** The legal reads recorded in the namespaces of {@code scope}, oldest first. */
  public List<LegalRead> list(NamespaceScope scope) {
    return engine.read(() -> layer.legalReads(scope));
  }
}
