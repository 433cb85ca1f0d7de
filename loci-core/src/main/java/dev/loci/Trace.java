package dev.loci;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One version of a piece of agent memory in the trace store: opaque JSON content, tags, and the
 * link to the version it revises. Immutable, so a returned trace never changes under its holder.
 *
 * @param uid the id, a UUID v7 unless the caller chose one
 * @param namespace the namespace the trace lives in
 * @param content the content, a single JSON value in compact form
 * @param predecessorUid the trace this one revises, empty for the first version
 * @param createdAt when the trace was added
 * @param updatedAt when the content was last replaced in place ({@code createdAt} if never)
 * @param retired whether the trace is hidden from search
 * @param replayCount how many times the trace was added, at least 1
 * @param tags the tags, without duplicates, in the order given
 */
public record Trace(
    String uid,
    Namespace namespace,
    String content,
    Optional<String> predecessorUid,
    Instant createdAt,
    Instant updatedAt,
    boolean retired,
    int replayCount,
    List<String> tags) {

  /** Checks presence and copies the tags. */
  public Trace {
    Objects.requireNonNull(uid, "uid");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(content, "content");
    Objects.requireNonNull(predecessorUid, "predecessorUid");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
    if (replayCount < 1) {
      throw new IllegalArgumentException("replayCount must be at least 1, found " + replayCount);
    }
    tags = List.copyOf(tags);
  }

  /** Returns true if the trace carries {@code tag}. */
  public boolean hasTag(String tag) {
    return tags.contains(tag);
  }

  /** A copy with new content and update time. */
  public Trace withContent(String newContent, Instant at) {
    return new Trace(
        uid, namespace, newContent, predecessorUid, createdAt, at, retired, replayCount, tags);
  }

  /** A copy marked retired. */
  public Trace asRetired() {
    return new Trace(
        uid, namespace, content, predecessorUid, createdAt, updatedAt, true, replayCount, tags);
  }

  /** A copy with the replay count raised by one. */
  public Trace replayed() {
    return new Trace(
        uid,
        namespace,
        content,
        predecessorUid,
        createdAt,
        updatedAt,
        retired,
        replayCount + 1,
        tags);
  }
}
