package dev.loci.recall.internal;

import dev.loci.recall.RecordVersion;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * All versions of one record of the memory graph ({@link RecallGraph}): the head's parts held here
 * (its value by the subclass, in the form it chooses), and the earlier versions in a list only once
 * there are any (most records never change, and a list and a version object per record cost more
 * than the record itself).
 *
 * <p>Not thread-safe: changed with the engine's exclusive access, read with its shared access.
 */
abstract class Chain<T> {
  final int ordinal; // how many records of its kind the namespace held before this one
  private int version; // negated for a removal (versions start at 1): no boolean to pad the object
  private Instant at;
  private List<RecordVersion<T>> earlier; // oldest first; null while there is one version

  Chain(int ordinal) {
    this.ordinal = ordinal;
  }

  boolean isEmpty() {
    return version == 0;
  }

  /** The newest version's value. */
  abstract T value();

  /** Makes {@code v} the newest version's value. */
  abstract void hold(T v);

  void add(RecordVersion<T> v) {
    add(v.value(), v.version(), v.at(), v.removed());
  }

  /** Adds the version {@code version} of {@code v}, put at {@code at} or removed. */
  void add(T v, int version, Instant at, boolean removed) {
    if (!isEmpty()) {
      if (earlier == null) {
        earlier = new ArrayList<>(2);
      }
      earlier.add(head());
    }
    set(v, version, at, removed);
  }

  /** Adds a removal of the record as the version {@code version}, at {@code at}. */
  void remove(int version, Instant at) {
    add(value(), version, at, true);
  }

  private void set(T v, int version, Instant at, boolean removed) {
    hold(v);
    this.version = removed ? -version : version;
    this.at = at;
  }

  /** The newest version, made on each call. */
  RecordVersion<T> head() {
    return new RecordVersion<>(value(), Math.abs(version), at, version < 0);
  }

  /** The newest version's number. */
  int version() {
    return Math.abs(version);
  }

  RecordVersion<T> first() {
    return earlier == null ? head() : earlier.get(0);
  }

  /** Every version, oldest first. */
  List<RecordVersion<T>> versions() {
    if (earlier == null) {
      return List.of(head());
    }
    List<RecordVersion<T>> out = new ArrayList<>(earlier.size() + 1);
    out.addAll(earlier);
    out.add(head());
    return out;
  }

  /** Replaces every version with what {@code change} makes of it. */
  void replaceAll(UnaryOperator<RecordVersion<T>> change) {
    if (earlier != null) {
      earlier.replaceAll(change);
    }
    RecordVersion<T> v = change.apply(head());
    set(v.value(), v.version(), v.at(), v.removed());
  }

  boolean live() {
    return version > 0;
  }
}
