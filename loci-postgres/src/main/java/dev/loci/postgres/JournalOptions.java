package dev.loci.postgres;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * How a {@link PostgresJournal} is opened, beside its URL.
 *
 * @param poolSize connections the journal keeps (HikariCP): appends, the follower's {@code LISTEN},
 *     reads and a probe after a lost reply each take one; at least {@value #MIN_POOL_SIZE}
 * @param dataDir the data directory of the server that opens it, if any: its compactions register
 *     the server's snapshot under an id kept in that directory, which archiving needs ({@link
 *     PostgresJournal#archive()}); a journal opened without one (verify, export from a tool) never
 *     registers
 */
public record JournalOptions(int poolSize, Optional<Path> dataDir) {
  /** Connections per journal unless set: appends, the follower's LISTEN, reads, a probe. */
  public static final int DEFAULT_POOL_SIZE = 4;

  /** Fewer connections and a following server's reads would wait on its own LISTEN. */
  public static final int MIN_POOL_SIZE = 3;

  /** The most connections one journal may ask for (PostgreSQL's default limit is 100 in all). */
  public static final int MAX_POOL_SIZE = 1000;

  /**
   * Checks the ranges.
   *
   * @throws IllegalArgumentException naming {@code pool_size} and the range if it is outside
   */
  public JournalOptions {
    Objects.requireNonNull(dataDir, "dataDir");
    if (poolSize < MIN_POOL_SIZE || poolSize > MAX_POOL_SIZE) {
      throw new IllegalArgumentException(
          "pool_size: expected "
              + MIN_POOL_SIZE
              + " to "
              + MAX_POOL_SIZE
              + " connections, found "
              + poolSize);
    }
  }

  /** {@value #DEFAULT_POOL_SIZE} connections, no data directory. */
  public static JournalOptions defaults() {
    return new JournalOptions(DEFAULT_POOL_SIZE, Optional.empty());
  }

  /** These options with {@code poolSize} connections. */
  public JournalOptions withPoolSize(int poolSize) {
    return new JournalOptions(poolSize, dataDir);
  }

  /** These options for the server whose data directory is {@code dir}. */
  public JournalOptions withDataDir(Path dir) {
    return new JournalOptions(poolSize, Optional.of(dir));
  }
}
