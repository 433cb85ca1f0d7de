package dev.loci.spi;

/**
 * Contributes a {@link Layer} to every {@link dev.loci.Loci} opened while the provider is on the
 * class path. Providers are found with {@link java.util.ServiceLoader} (a {@code
 * META-INF/services/dev.loci.spi.LayerProvider} entry), so adding a layer module as a dependency is
 * all it takes; a data directory holding events of a layer that is not on the class path refuses to
 * open rather than lose them.
 */
public interface LayerProvider {
  /** A fresh, empty layer for one instance. */
  Layer create();
}
