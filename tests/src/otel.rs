//! OpenTelemetry as a test sees it: a `tracing` subscriber for the current thread that exports
//! every span through `tracing-opentelemetry` into the SDK's in-memory exporter, and a meter
//! whose readings an in-memory metric exporter keeps.
//!
//! Like [`Capture`](crate::Capture), it is scoped to its thread: run the calls on a
//! current-thread runtime (`#[tokio::test]`), whose spawned tasks stay on the same thread.

use opentelemetry::trace::TracerProvider as _;
use opentelemetry::{KeyValue, Value as OtelValue};
use opentelemetry_sdk::metrics::data::{AggregatedMetrics, MetricData, ResourceMetrics};
use opentelemetry_sdk::metrics::{InMemoryMetricExporter, PeriodicReader, SdkMeterProvider};
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
use tracing_subscriber::layer::SubscriberExt;

/// Spans exported while installed on this thread.
pub struct OtelCapture {
    exporter: InMemorySpanExporter,
    provider: SdkTracerProvider,
    _guard: tracing::subscriber::DefaultGuard,
}

impl OtelCapture {
    /// Installs the subscriber on this thread until the capture is dropped.
    pub fn install() -> Self {
        crate::keep_interest_shared();
        let exporter = InMemorySpanExporter::default();
        let provider = SdkTracerProvider::builder()
            .with_simple_exporter(exporter.clone())
            .build();
        let tracer = provider.tracer("dsh-tools-tests");
        let subscriber =
            tracing_subscriber::registry().with(tracing_opentelemetry::layer().with_tracer(tracer));
        let guard = tracing::subscriber::set_default(subscriber);
        Self {
            exporter,
            provider,
            _guard: guard,
        }
    }

    /// The spans ended so far, in the order they ended.
    pub fn spans(&self) -> Vec<SpanData> {
        let _ = self.provider.force_flush();
        self.exporter
            .get_finished_spans()
            .expect("the in-memory exporter answers")
    }

    /// The one ended span named `name` (fails the test when there is not exactly one).
    pub fn span(&self, name: &str) -> SpanData {
        let mut found: Vec<SpanData> = self
            .spans()
            .into_iter()
            .filter(|span| span.name == name)
            .collect();
        assert_eq!(found.len(), 1, "spans named {name:?}: {found:#?}");
        found.remove(0)
    }
}

/// The value of attribute `key` of `attributes` as text, if it is there.
pub fn attribute(attributes: &[KeyValue], key: &str) -> Option<String> {
    attributes
        .iter()
        .find(|pair| pair.key.as_str() == key)
        .map(|pair| match &pair.value {
            OtelValue::String(text) => text.as_str().to_owned(),
            other => other.to_string(),
        })
}

/// The value of a span's attribute `key` as text, if it has it.
pub fn span_attribute(span: &SpanData, key: &str) -> Option<String> {
    attribute(&span.attributes, key)
}

/// A meter whose readings [`MetricsCapture::collect`] returns.
pub struct MetricsCapture {
    exporter: InMemoryMetricExporter,
    provider: SdkMeterProvider,
}

impl MetricsCapture {
    /// A fresh meter provider exporting into memory.
    pub fn new() -> Self {
        let exporter = InMemoryMetricExporter::default();
        let provider = SdkMeterProvider::builder()
            .with_reader(PeriodicReader::builder(exporter.clone()).build())
            .build();
        Self { exporter, provider }
    }

    /// The meter to hand the registry.
    pub fn meter(&self) -> opentelemetry::metrics::Meter {
        use opentelemetry::metrics::MeterProvider as _;
        self.provider.meter("dsh-tools-tests")
    }

    /// Every data point recorded so far, as `(metric name, attributes, count or sum)`: a
    /// histogram's point gives its count, a counter's its sum.
    pub fn collect(&self) -> Vec<(String, Vec<KeyValue>, u64)> {
        self.provider.force_flush().expect("the meter flushes");
        let exported: Vec<ResourceMetrics> = self
            .exporter
            .get_finished_metrics()
            .expect("the in-memory exporter answers");
        let mut points = Vec::new();
        // Each flush exports the cumulative state: the last export has everything.
        let Some(last) = exported.last() else {
            return points;
        };
        for scope in last.scope_metrics() {
            for metric in scope.metrics() {
                let name = metric.name().to_owned();
                match metric.data() {
                    AggregatedMetrics::F64(MetricData::Histogram(histogram)) => {
                        for point in histogram.data_points() {
                            let attributes = point.attributes().cloned().collect();
                            points.push((name.clone(), attributes, point.count()));
                        }
                    }
                    AggregatedMetrics::U64(MetricData::Sum(sum)) => {
                        for point in sum.data_points() {
                            let attributes = point.attributes().cloned().collect();
                            points.push((name.clone(), attributes, point.value()));
                        }
                    }
                    _ => {}
                }
            }
        }
        points
    }
}

impl Default for MetricsCapture {
    fn default() -> Self {
        Self::new()
    }
}
