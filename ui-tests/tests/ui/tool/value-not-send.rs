use std::rc::Rc;

use dsh_tools::tool;

/// Echoes.
#[tool]
async fn echo(text: String) -> Rc<String> {
    Rc::new(text)
}

fn main() {}
