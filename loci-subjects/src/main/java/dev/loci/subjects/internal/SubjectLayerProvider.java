package dev.loci.subjects.internal;

import dev.loci.spi.Layer;
import dev.loci.spi.LayerProvider;

/** Registers the subject layer with every {@code Loci} opened while this module is present. */
public final class SubjectLayerProvider implements LayerProvider {
  @Override
  public Layer create() {
    return new SubjectLayer();
  }
}
