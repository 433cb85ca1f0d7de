package dev.loci.internal;

import java.security.SecureRandom;
import java.time.Instant;
import java.util.UUID;

/**
 * Generates RFC 9562 version 7 UUIDs: 48 bits of Unix milliseconds, then random bits. Within one
 * generator, ids are strictly increasing even when many are made in the same millisecond: the
 * 12-bit {@code rand_a} field is a counter seeded at random each millisecond, and when it overflows
 * the timestamp field is advanced by one (method 1 and 3 of RFC 9562 section 6.2).
 *
 * <p>Thread-safe.
 */
public final class UuidV7 {
  private final SecureRandom random = drbg();
  // random bytes drawn from the generator a block at a time: one call to it per id cost more than
  // the rest of making the id
  private final byte[] pool = new byte[4096];
  private int pooled;
  private long lastMillis = -1;
  private int counter;

  /**
   * An in-process DRBG: cryptographically strong like the platform default, but it does not read
   * the operating system's random device on every call, as NativePRNG does.
   */
  private static SecureRandom drbg() {
    try {
      return SecureRandom.getInstance("DRBG");
    } catch (java.security.NoSuchAlgorithmException e) {
      return new SecureRandom();
    }
  }

  /** Returns a new id whose timestamp is {@code at}, or later if needed to stay increasing. */
  public synchronized UUID next(Instant at) {
    long millis = at.toEpochMilli();
    if (millis > lastMillis) {
      lastMillis = millis;
      counter = (int) randomBits(2) & 0x7FF; // leave headroom before the 12-bit field overflows
    } else {
      counter++;
      if (counter >= 1 << 12) {
        lastMillis++;
        counter = (int) randomBits(2) & 0x7FF;
      }
    }
    long msb = (lastMillis & 0xFFFF_FFFF_FFFFL) << 16 | 0x7000L | counter;
    long lsb = randomBits(8) & 0x3FFF_FFFF_FFFF_FFFFL | 0x8000_0000_0000_0000L;
    return new UUID(msb, lsb);
  }

  /** The next {@code bytes} random bytes (at most 8) as a number; call while synchronized. */
  private long randomBits(int bytes) {
    if (pooled < bytes) {
      random.nextBytes(pool);
      pooled = pool.length;
    }
    long v = 0;
    for (int i = 0; i < bytes; i++) {
      v = v << 8 | (pool[--pooled] & 0xFF);
      pool[pooled] = 0; // a byte is used once, and does not stay in memory once used
    }
    return v;
  }

  /** Returns true if {@code text} is a lower-case UUID string of version 7. */
  public static boolean isV7(String text) {
    try {
      UUID u = UUID.fromString(text);
      return u.version() == 7 && u.variant() == 2 && u.toString().equals(text);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
