package dev.loci.govern;

import dev.loci.Namespace;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Two or more trusted records claiming one slot with different values. A conflict never blocks the
 * write that caused it; only a reviewer closes it, by naming a winner (the others are superseded)
 * or by dismissing it.
 *
 * @param id the conflict's id (UUID v7)
 * @param namespace where it was found
 * @param slotKey the slot claimed ({@link Memory#slotKey()})
 * @param members the memory ids, and {@code state:<key>} for trusted project state, that disagree
 * @param status open, resolved or dismissed
 * @param winner the member a resolution kept
 * @param decidedBy the reviewer who closed it
 * @param openedAt when it was detected
 * @param closedAt when a reviewer closed it
 */
public record Conflict(
    String id,
    Namespace namespace,
    String slotKey,
    List<String> members,
    Status status,
    Optional<String> winner,
    Optional<String> decidedBy,
    Instant openedAt,
    Optional<Instant> closedAt) {
  /** Whether a conflict still waits for a reviewer. */
  public enum Status {
    /** Waiting for a reviewer. */
    OPEN,
    /** A reviewer kept one member and superseded the others. */
    RESOLVED,
    /** A reviewer found it no real conflict. */
    DISMISSED;

    /** The name on the wire. */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Checks presence and copies the members. */
  public Conflict {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(slotKey, "slotKey");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(winner, "winner");
    Objects.requireNonNull(decidedBy, "decidedBy");
    Objects.requireNonNull(openedAt, "openedAt");
    Objects.requireNonNull(closedAt, "closedAt");
    members = List.copyOf(members);
  }

  /** A new open conflict over {@code slotKey}, with no members yet. */
  public static Conflict opened(String id, Namespace namespace, String slotKey, Instant at) {
    return new Conflict(
        id,
        namespace,
        slotKey,
        List.of(),
        Status.OPEN,
        Optional.empty(),
        Optional.empty(),
        at,
        Optional.empty());
  }

  /** This conflict with {@code member} added (unchanged if it is one already). */
  public Conflict with(String member) {
    if (members.contains(member)) {
      return this;
    }
    List<String> more = new java.util.ArrayList<>(members);
    more.add(member);
    return new Conflict(
        id, namespace, slotKey, more, status, winner, decidedBy, openedAt, closedAt);
  }

  /** This conflict closed by {@code reviewer} at {@code at}. */
  public Conflict closed(Status status, Optional<String> winner, String reviewer, Instant at) {
    return new Conflict(
        id,
        namespace,
        slotKey,
        members,
        status,
        winner,
        Optional.of(reviewer),
        openedAt,
        Optional.of(at));
  }
}
