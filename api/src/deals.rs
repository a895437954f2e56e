//! deals routes.

use crate::Routes;

pub(crate) fn routes() -> Routes {
    Routes::new()
}
