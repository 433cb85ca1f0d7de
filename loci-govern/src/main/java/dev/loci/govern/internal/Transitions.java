package dev.loci.govern.internal;

import dev.loci.InvalidRequestException;
import dev.loci.govern.Entity;
import dev.loci.govern.EntityStatus;
import dev.loci.govern.Memory;
import dev.loci.govern.MemoryStatus;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The status transitions memories and entities share, written once for both kinds: which statuses a
 * promotion, a rejection, an invalidation and a supersession start from, what reason each new
 * version records, and the {@code status} / {@code reason} / {@code by} errors an illegal one
 * raises. Memories and entities stay separate record types (the seed's rule); each kind is one
 * constant here, naming its accessors. Stateless, thread-safe.
 *
 * @param <R> the record type
 * @param <S> its status type
 */
final class Transitions<R, S extends Enum<S>> {
  /** A record's next version in {@code status} with {@code reason}, at a time. */
  @FunctionalInterface
  interface WithStatus<R, S> {
    R apply(R record, S status, Optional<String> reason, Instant at);
  }

  /** The transitions of memories. */
  static final Transitions<Memory, MemoryStatus> MEMORIES =
      new Transitions<>(
          "memory",
          Memory::id,
          Memory::status,
          MemoryStatus::label,
          MemoryStatus.CANDIDATE,
          MemoryStatus.ACTIVE,
          MemoryStatus.INVALID,
          Memory::withStatus);

  /** The transitions of entities. */
  static final Transitions<Entity, EntityStatus> ENTITIES =
      new Transitions<>(
          "entity",
          Entity::id,
          Entity::status,
          EntityStatus::label,
          EntityStatus.CANDIDATE,
          EntityStatus.ACTIVE,
          EntityStatus.INVALID,
          Entity::withStatus);

  private final String kind;
  private final Function<R, String> id;
  private final Function<R, S> status;
  private final Function<S, String> label;
  private final S candidate;
  private final S active;
  private final S invalid;
  private final WithStatus<R, S> withStatus;

  private Transitions(
      String kind,
      Function<R, String> id,
      Function<R, S> status,
      Function<S, String> label,
      S candidate,
      S active,
      S invalid,
      WithStatus<R, S> withStatus) {
    this.kind = kind;
    this.id = id;
    this.status = status;
    this.label = label;
    this.candidate = candidate;
    this.active = active;
    this.invalid = invalid;
    this.withStatus = withStatus;
  }

  /**
   * Checks that {@code r} is in one of {@code allowed}.
   *
   * @throws InvalidRequestException naming {@code status}
   */
  @SafeVarargs
  final void require(R r, S... allowed) {
    S s = status.apply(r);
    for (S a : allowed) {
      if (s == a) {
        return;
      }
    }
    throw new InvalidRequestException(
        "status",
        kind
            + " '"
            + id.apply(r)
            + "' is "
            + label.apply(s)
            + "; expected "
            + Arrays.stream(allowed).map(label).collect(Collectors.joining(" or ")));
  }

  /** Candidate {@code r} promoted to active by {@code reviewer}. */
  R promote(R r, String reviewer, Instant at) {
    require(r, candidate);
    return activated(r, reviewer, at);
  }

  /** {@code r} made active by {@code reviewer}, whatever it was (a checked path decided it). */
  R activated(R r, String reviewer, Instant at) {
    return withStatus.apply(r, active, Optional.of("promoted by " + reviewer), at);
  }

  /**
   * {@code r} rejected ({@code candidatesOnly}: it must be a candidate) or invalidated (a candidate
   * or active record), recording the reason and who gave it.
   *
   * @throws InvalidRequestException naming {@code reason} if blank, {@code status}
   */
  R invalidate(R r, String reason, String reviewer, boolean candidatesOnly, Instant at) {
    requireReason(reason);
    if (candidatesOnly) {
      require(r, candidate);
    } else {
      require(r, candidate, active);
    }
    return withStatus.apply(r, invalid, Optional.of(reason + " (" + reviewer + ")"), at);
  }

  /**
   * Checks the successor of a supersession (the superseded record was checked active first), and
   * returns it as it will be written: active, promoted by {@code reviewer} if a candidate.
   *
   * @throws InvalidRequestException naming {@code by}
   */
  R successor(R successor, String reviewer, Instant at) {
    S s = status.apply(successor);
    if (s != active && s != candidate) {
      throw new InvalidRequestException(
          "by", "expected an active or candidate successor, found " + label.apply(s));
    }
    return s == candidate ? activated(successor, reviewer, at) : successor;
  }

  /**
   * Checks that a record is not superseded by itself.
   *
   * @throws InvalidRequestException naming {@code by}
   */
  void requireOther(String id, String by) {
    if (id.equals(by)) {
      throw new InvalidRequestException(
          "by", (kind.equals("entity") ? "an " : "a ") + kind + " cannot supersede itself");
    }
  }

  /**
   * Checks that a rejection or invalidation says why.
   *
   * @throws InvalidRequestException naming {@code reason}
   */
  static void requireReason(String reason) {
    if (reason == null || reason.isBlank()) {
      throw new InvalidRequestException("reason", "expected why, found none");
    }
  }
}
