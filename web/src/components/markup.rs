//! Markup as data: a card or a summary is described as a small tree of [`Node`]s and rendered by one
//! recursive function. Every element goes through the same code, so a view's size in the bundle no
//! longer grows with its markup (a `view!` per element costs each module that renders it kilobytes of
//! generic code; a shared link's module renders cards too).

use leptos::html::custom;
use leptos::prelude::*;

use super::visible_text::VisibleText;

/// One piece of markup.
pub enum Node {
    /// Our own words (titles, labels, advice): a text node.
    Text(String),
    /// Words from a server or a link: shown through [`VisibleText`] (controls as tokens, a cap, an
    /// optional highlight).
    Shown {
        text: String,
        cap: usize,
        highlight: Option<[usize; 2]>,
    },
    /// An element.
    El(El),
}

/// An element: its tag, the attributes a view uses, its children.
#[derive(Default)]
pub struct El {
    tag: &'static str,
    class: Option<String>,
    testid: Option<String>,
    data_id: Option<String>,
    href: Option<String>,
    to_card: bool,
    tabindex: Option<&'static str>,
    aria_label: Option<&'static str>,
    role: Option<&'static str>,
    hidden_from_readers: bool,
    children: Vec<Node>,
}

/// An element with this tag.
pub fn el(tag: &'static str) -> El {
    El {
        tag,
        ..El::default()
    }
}

/// Our own words.
pub fn text(t: impl Into<String>) -> Node {
    Node::Text(t.into())
}

/// A server's (or a link's) words, capped.
pub fn shown(t: impl Into<String>, cap: usize) -> Node {
    Node::Shown {
        text: t.into(),
        cap,
        highlight: None,
    }
}

impl El {
    /// The class attribute.
    pub fn class(mut self, c: impl Into<String>) -> El {
        self.class = Some(c.into());
        self
    }

    /// The `data-testid` attribute.
    pub fn testid(mut self, t: impl Into<String>) -> El {
        self.testid = Some(t.into());
        self
    }

    /// The `data-id` attribute: the stable identifier behind the words shown.
    pub fn data_id(mut self, id: impl Into<String>) -> El {
        self.data_id = Some(id.into());
        self
    }

    /// A link's address (only our own: the spec's pages). It opens in a new tab, with no opener
    /// and no referrer.
    pub fn href(mut self, h: impl Into<String>) -> El {
        self.href = Some(h.into());
        self
    }

    /// A link to a card on this page (`card` is its id): the results open that card, scroll to it
    /// and focus it when it is followed.
    pub fn to_card(mut self, card: impl Into<String>) -> El {
        let card = card.into();
        self.href = Some(format!("#{card}"));
        self.data_id = Some(card);
        self.class = Some("to-card".into());
        self.to_card = true;
        self
    }

    /// Focusable (a scrollable `pre`).
    pub fn focusable(mut self) -> El {
        self.tabindex = Some("0");
        self
    }

    /// Its name for screen readers (a landmark's).
    pub fn named(mut self, name: &'static str) -> El {
        self.aria_label = Some(name);
        self
    }

    /// An alert: read out when it appears.
    pub fn alert(mut self) -> El {
        self.role = Some("alert");
        self
    }

    /// A note beside the main content.
    pub fn note(mut self) -> El {
        self.role = Some("note");
        self
    }

    /// Hidden from screen readers (a symbol that repeats the words beside it).
    pub fn decorative(mut self) -> El {
        self.hidden_from_readers = true;
        self
    }

    /// One more child.
    pub fn child(mut self, n: impl Into<Node>) -> El {
        self.children.push(n.into());
        self
    }

    /// One more child, when there is one.
    pub fn child_if(self, n: Option<impl Into<Node>>) -> El {
        match n {
            Some(n) => self.child(n),
            None => self,
        }
    }

    /// More children.
    pub fn children(mut self, ns: impl IntoIterator<Item = Node>) -> El {
        self.children.extend(ns);
        self
    }

    /// Our own words as one more child.
    pub fn text(self, t: impl Into<String>) -> El {
        self.child(text(t))
    }

    /// A server's words as one more child.
    pub fn shown(self, t: impl Into<String>, cap: usize) -> El {
        self.child(shown(t, cap))
    }
}

impl From<El> for Node {
    fn from(e: El) -> Node {
        Node::El(e)
    }
}

/// Renders a tree; `extra` is appended to the root's children (what only a live page adds).
pub fn render(node: Node, extra: Option<AnyView>) -> AnyView {
    match node {
        Node::Text(t) => t.into_any(),
        Node::Shown {
            text,
            cap,
            highlight,
        } => match highlight {
            Some(h) => view! { <VisibleText text=text cap=cap highlight=h /> }.into_any(),
            None => view! { <VisibleText text=text cap=cap /> }.into_any(),
        },
        Node::El(e) => {
            let external = e.href.is_some() && !e.to_card;
            let children: Vec<AnyView> = e
                .children
                .into_iter()
                .map(|c| render(c, None))
                .chain(extra)
                .collect();
            custom(e.tag)
                .attr("class", e.class)
                .attr("data-testid", e.testid)
                .attr("data-id", e.data_id)
                .attr("href", e.href)
                .attr("target", external.then_some("_blank"))
                .attr("rel", external.then_some("noopener noreferrer"))
                .attr("tabindex", e.tabindex)
                .attr("role", e.role)
                .attr("aria-label", e.aria_label)
                .attr("aria-hidden", e.hidden_from_readers.then_some("true"))
                .child(children)
                .into_any()
        }
    }
}
