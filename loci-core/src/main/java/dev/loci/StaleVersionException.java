package dev.loci;

import java.util.Objects;

/**
 * A conditional write named the version of a record the caller read earlier, and the record has
 * changed since. Nothing was written; the caller must read the record again and decide.
 */
public class StaleVersionException extends ConflictException {
  private static final long serialVersionUID = 1L;
  private final String uid;
  private final String expected;
  private final String actual;

  /**
   * Creates an exception for the record {@code uid}.
   *
   * @param uid the record the write was conditional on
   * @param expected the version the caller expected
   * @param actual the version the record has
   */
  public StaleVersionException(String uid, String expected, String actual) {
    this(
        "uid: trace '"
            + uid
            + "' is at version "
            + actual
            + ", not the expected "
            + expected
            + "; read it again",
        uid,
        expected,
        actual);
  }

  /**
   * Creates an exception for the record {@code uid} of another kind than a trace.
   *
   * @param message what was expected and what was found, starting with the field that names the
   *     record (for example {@code id: node 'c:1' is at version 3, not the expected 2})
   * @param uid the record the write was conditional on
   * @param expected the version the caller expected
   * @param actual the version the record has ({@code none} when there is no live record)
   */
  public StaleVersionException(String message, String uid, String expected, String actual) {
    super(message);
    this.uid = Objects.requireNonNull(uid, "uid");
    this.expected = Objects.requireNonNull(expected, "expected");
    this.actual = Objects.requireNonNull(actual, "actual");
  }

  /** The record the write was conditional on. */
  public String uid() {
    return uid;
  }

  /** The version the caller expected. */
  public String expected() {
    return expected;
  }

  /** The version the record has. */
  public String actual() {
    return actual;
  }
}
