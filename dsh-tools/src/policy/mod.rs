//! Built-in policies: the approval seam, the timeout wrapper and the parallel batch runner.

pub(crate) mod approval;
pub(crate) mod batch;
pub(crate) mod timeout;
