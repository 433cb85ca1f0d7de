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
 * @param members the records that disagree: memory ids, {@code entity:<id>} for entities and {@code
 *     state:<key>} for trusted project state
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

  /** The prefix of an entity member. */
  public static final String ENTITY = "entity:";

  /** The prefix of a trusted-state member. */
  public static final String STATE = "state:";

  /**
   * A member's rank in the trust order: trusted project state 3, an active entity 2, an active
   * memory 1.
   */
  public static int trust(String member) {
    return member.startsWith(STATE) ? 3 : member.startsWith(ENTITY) ? 2 : 1;
  }

  /**
   * For a conflict across layers, the member the trust order puts first (trusted project state >
   * active entities > active memories): what a context pack keeps while the conflict is open. Empty
   * when the members share the top rank: then only a reviewer can say.
   */
  public Optional<String> prevailing() {
    int top = members.stream().mapToInt(Conflict::trust).max().orElse(0);
    List<String> best = members.stream().filter(m -> trust(m) == top).toList();
    return best.size() == 1 && members.size() > 1 ? Optional.of(best.get(0)) : Optional.empty();
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
