package dev.loci;

import dev.loci.internal.Json;
import dev.loci.internal.Timestamps;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Base64;
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

  /**
   * The public JSON form of the trace, the one mapping the CLI and the HTTP API both print: one
   * compact object with snake_case fields {@code uid}, {@code namespace}, {@code content} (the
   * stored JSON value itself, not a string), {@code predecessor_uid} (only when there is one),
   * {@code created_at}, {@code updated_at} (RFC 3339 in UTC with six fraction digits), {@code
   * retired}, {@code replay_count} and {@code tags}.
   */
  public String toJson() {
    return appendJson(new StringBuilder(content.length() + 256)).toString();
  }

  /**
   * Reads the public JSON form ({@link #toJson()}), as a remote client receives it: the content's
   * text is kept verbatim, so {@link #version()} matches the server's.
   *
   * @throws IllegalArgumentException if {@code json} is not a complete trace
   */
  public static Trace fromJson(String json) {
    return dev.loci.internal.TraceRecords.parsePublic(json);
  }

  /** Appends {@link #toJson()} to {@code sb} and returns {@code sb}. */
  public StringBuilder appendJson(StringBuilder sb) {
    Json.appendQuoted(sb.append("{\"uid\":"), uid);
    Json.appendQuoted(sb.append(",\"namespace\":"), namespace.value());
    sb.append(",\"content\":").append(content);
    if (predecessorUid.isPresent()) {
      Json.appendQuoted(sb.append(",\"predecessor_uid\":"), predecessorUid.get());
    }
    Timestamps.append(sb.append(",\"created_at\":\""), createdAt);
    Timestamps.append(sb.append("\",\"updated_at\":\""), updatedAt);
    sb.append("\",\"retired\":").append(retired);
    sb.append(",\"replay_count\":").append(replayCount).append(",\"tags\":[");
    for (int i = 0; i < tags.size(); i++) {
      Json.appendQuoted(i == 0 ? sb : sb.append(','), tags.get(i));
    }
    return sb.append("]}");
  }

  /**
   * An opaque tag that changes whenever anything about the trace changes (content, retirement,
   * replay count), derived from all of its fields; 22 URL-safe characters. Pass it back to a
   * conditional write ({@link Traces#update(Namespace, String, String, String)} and its siblings)
   * so that a change made by someone else since the read is detected instead of overwritten.
   */
  public String version() {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK lacks SHA-256", e);
    }
    byte[] digest = sha.digest(toJson().getBytes(StandardCharsets.UTF_8));
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(java.util.Arrays.copyOf(digest, 16));
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
