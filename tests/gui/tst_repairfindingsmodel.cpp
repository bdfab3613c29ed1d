// The repair wizard's findings list (RepairFindingsModel), no server: the repairable findings are
// checkable and the others greyed with what to do instead; warnings and worse start ticked, info ones
// not; ticks follow a finding's identity across a fresh check (the operator's choice stays, new findings
// get the default); a selection from the cluster overview ticks exactly those findings.
#include <QSignalSpy>
#include <QTest>

#include "diagnosis/findingcatalogue.h"
#include "models/repairfindingsmodel.h"

using namespace MqttDoctor;
using namespace Qt::StringLiterals;

namespace {

Finding finding(const QString &code, Finding::Severity severity, const QString &account, const QString &title, const QString &repair)
{
    Finding f;
    f.code = code;
    f.severity = severity;
    f.account = account;
    f.title = title;
    f.stream = u"$MQTT_msgs"_s;
    f.repair = repair;
    return f;
}

QStringList tickedTitles(const RepairFindingsModel &model)
{
    QStringList out;
    for (const Finding &f : model.selected())
        out << f.title;
    return out;
}

} // namespace

class TestRepairFindingsModel : public QObject
{
    Q_OBJECT

private slots:
    void defaultsAndFlags()
    {
        RepairFindingsModel model;
        QSignalSpy changed(&model, &RepairFindingsModel::selectionChanged);
        model.setFindings({finding(u"ORPHAN_CONSUMER"_s, Finding::Severity::Warning, u"ACME"_s, u"orphan a"_s, u"delete_consumer"_s),
                           finding(u"SESSION_STALE"_s, Finding::Severity::Info, u"ACME"_s, u"stale b"_s, u"delete_session"_s),
                           finding(u"JETSTREAM_DISABLED"_s, Finding::Severity::Info, u"ACME"_s, u"no jetstream"_s, QString())});
        QCOMPARE(changed.count(), 1);
        QCOMPARE(tickedTitles(model), QStringList{u"orphan a"_s});
        QCOMPARE(model.repairableCount(), 2);
        const QModelIndex info = model.index(1, RepairFindingsModel::SeverityColumn);
        QVERIFY(model.flags(info) & Qt::ItemIsUserCheckable);
        QCOMPARE(model.data(info, Qt::CheckStateRole).value<Qt::CheckState>(), Qt::Unchecked);
        // Without a repair: not checkable, not enabled, and the tooltip says what to do instead.
        const QModelIndex guidance = model.index(2, RepairFindingsModel::RepairColumn);
        QVERIFY(!(model.flags(model.index(2, RepairFindingsModel::SeverityColumn)) & Qt::ItemIsUserCheckable));
        QVERIFY(!(model.flags(guidance) & Qt::ItemIsEnabled));
        QCOMPARE(model.data(guidance).toString(), u"guidance only"_s);
        QVERIFY(!model.data(model.index(2, RepairFindingsModel::SeverityColumn), Qt::CheckStateRole).isValid());
        QVERIFY(!model.setData(model.index(2, RepairFindingsModel::SeverityColumn), Qt::Checked, Qt::CheckStateRole));
        const FindingCatalogue::Entry *entry = FindingCatalogue::entry(u"JETSTREAM_DISABLED"_s);
        QVERIFY(entry);
        QVERIFY2(model.data(guidance, Qt::ToolTipRole).toString().contains(entry->guidance),
                 qPrintable(model.data(guidance, Qt::ToolTipRole).toString()));
        // Ticking by hand.
        QVERIFY(model.setData(info, Qt::Checked, Qt::CheckStateRole));
        QCOMPARE(tickedTitles(model), (QStringList{u"orphan a"_s, u"stale b"_s}));
        QCOMPARE(changed.count(), 2);
    }

    void ticksFollowIdentityAcrossChecks()
    {
        RepairFindingsModel model;
        const Finding a = finding(u"ORPHAN_CONSUMER"_s, Finding::Severity::Warning, u"ACME"_s, u"orphan a"_s, u"delete_consumer"_s);
        const Finding b = finding(u"ORPHAN_CONSUMER"_s, Finding::Severity::Warning, u"ACME"_s, u"orphan b"_s, u"delete_consumer"_s);
        model.setFindings({a, b});
        QVERIFY(model.setData(model.index(0, 0), Qt::Unchecked, Qt::CheckStateRole)); // the operator leaves a alone
        const Finding c = finding(u"STREAM_MISSING"_s, Finding::Severity::Critical, u"ACME"_s, u"missing c"_s, u"create_stream"_s);
        model.setFindings({c, b, a}); // a fresh check, in another order, with a new finding
        QCOMPARE(tickedTitles(model), (QStringList{u"missing c"_s, u"orphan b"_s}));
    }

    void selectionsByCodeAndIdentity()
    {
        RepairFindingsModel model;
        const Finding a = finding(u"ORPHAN_CONSUMER"_s, Finding::Severity::Warning, u"ORPHAN"_s, u"orphan a"_s, u"delete_consumer"_s);
        const Finding b = finding(u"SESSION_UNDECODABLE"_s, Finding::Severity::Critical, u"GARBAGE"_s, u"garbage b"_s, u"purge_session"_s);
        const Finding c = finding(u"STREAM_MISSING"_s, Finding::Severity::Critical, u"NOSESS"_s, u"missing c"_s, u"create_stream"_s);
        model.setFindings({a, b, c});
        model.selectCodes({u"ORPHAN_CONSUMER"_s});
        QCOMPARE(tickedTitles(model), QStringList{u"orphan a"_s});
        model.selectIdentities({b.identity(), c.identity()});
        QCOMPARE(tickedTitles(model), (QStringList{u"garbage b"_s, u"missing c"_s}));
        // Several accounts: "Where" names the account.
        model.setShowAccount(true);
        QVERIFY2(model.data(model.index(1, RepairFindingsModel::ObjectColumn)).toString().startsWith(u"GARBAGE"_s),
                 qPrintable(model.data(model.index(1, RepairFindingsModel::ObjectColumn)).toString()));
    }
};

QTEST_MAIN(TestRepairFindingsModel)
#include "tst_repairfindingsmodel.moc"
