//! companies routes.

use crate::Routes;

pub(crate) fn routes() -> Routes {
    Routes::new()
}
